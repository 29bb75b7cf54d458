import com.fasterxml.jackson.databind.*;
import io.hikyaku.protocol.*;
import java.nio.file.*;
import java.util.*;
public class EncodeJson {
    public static void main(String[] a) throws Exception {
        SqsProtocolCodec codec = new SqsProtocolCodec();
        ObjectMapper m = new ObjectMapper();
        ApiRequest r = new ApiRequest("GetQueueUrl", m.createObjectNode(), WireProtocol.JSON, false, "/");
        List<Map<String,Object>> out = new ArrayList<>();
        for (String[] e : new String[][]{{"QueueDoesNotExist","The specified queue does not exist."},{"InvalidParameterValue","bad"},{"SerializationException","x"},{"UnknownOperationException","y"}}) {
            HttpResponseData d = codec.encodeError(null, r, new ApiException(e[0], e[1]), "rid");
            out.add(Map.of("status", d.status(), "headers", d.headers(), "body", new String(d.body(), "UTF-8")));
        }
        System.out.println(m.writeValueAsString(out));
    }
}
