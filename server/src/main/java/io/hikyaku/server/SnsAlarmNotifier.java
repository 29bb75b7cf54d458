package io.hikyaku.server;

import io.hikyaku.cloudwatch.AlarmNotifier;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.sns.SnsApi;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CloudWatch alarm actions published to this server's SNS topics: an SNS Publish call (Query form,
 * as a client would send it) through SNS's public entry point, as the alarm's account.
 */
final class SnsAlarmNotifier implements AlarmNotifier {

    private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");
    private static final long TIMEOUT_SECONDS = 30;

    private final Supplier<SnsApi> sns;

    SnsAlarmNotifier(Supplier<SnsApi> sns) {
        this.sns = sns;
    }

    @Override
    public String publish(String accountId, String topicArn, String subject, String message) {
        SnsApi api = sns.get();
        if (api == null) {
            return "SNS is not running on this server";
        }
        String form = "Action=Publish&Version=" + SnsApi.VERSION + "&TopicArn=" + encode(topicArn) + "&Subject=" + encode(subject)
                + "&Message=" + encode(message);
        HttpRequestData request = new HttpRequestData("POST", "/", null,
                Map.of("content-type", "application/x-www-form-urlencoded; charset=utf-8"), form.getBytes(StandardCharsets.UTF_8));
        try {
            HttpResponseData response = api.handle(request, accountId).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (response.status() == 200) {
                return null;
            }
            Matcher m = CODE.matcher(new String(response.body(), StandardCharsets.UTF_8));
            return "SNS answered " + response.status() + (m.find() ? " " + m.group(1) : "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
