import com.fasterxml.jackson.databind.*;
import com.fasterxml.jackson.databind.node.*;
import io.hikyaku.protocol.*;
import java.nio.file.*;
import java.util.*;
public class Encode {
    public static void main(String[] a) throws Exception {
        ObjectMapper m = new ObjectMapper();
        JsonNode all = m.readTree(Files.readAllBytes(Path.of("results.json")));
        SqsProtocolCodec codec = new SqsProtocolCodec();
        Files.createDirectories(Path.of("xml"));
        for (Iterator<String> it = all.fieldNames(); it.hasNext();) {
            String op = it.next();
            ApiRequest r = new ApiRequest(op, m.createObjectNode(), WireProtocol.QUERY, false, "/");
            Files.write(Path.of("xml", op + ".xml"), codec.encodeResult(r, (ObjectNode) all.get(op), "rid").body());
        }
        ApiRequest r = new ApiRequest("GetQueueUrl", m.createObjectNode(), WireProtocol.QUERY, false, "/");
        Files.write(Path.of("xml", "error.xml"), codec.encodeError(null, r, new ApiException("QueueDoesNotExist", "The specified queue does not exist."), "rid").body());
    }
}
