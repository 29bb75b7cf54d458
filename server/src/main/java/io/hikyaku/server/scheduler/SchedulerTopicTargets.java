package io.hikyaku.server.scheduler;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.scheduler.TopicTargets;
import io.hikyaku.sns.SnsApi;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Schedules' SNS topic targets: each fire is an SNS Publish (the Query form a client sends) through SNS's public
 * entry point, in the topic's account; SNS then fans it out to the topic's subscriptions as any publish.
 */
public final class SchedulerTopicTargets implements TopicTargets {

    private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");
    private static final Pattern MESSAGE = Pattern.compile("<Message>([^<]*)</Message>");
    private static final long TIMEOUT_SECONDS = 10;

    private final Supplier<SnsApi> sns;

    public SchedulerTopicTargets(Supplier<SnsApi> sns) {
        this.sns = sns;
    }

    @Override
    public String publish(String account, String topicArn, String message) {
        SnsApi api = sns.get();
        if (api == null) {
            return "SNS is not running on this server";
        }
        String form = "Action=Publish&Version=" + SnsApi.VERSION + "&TopicArn=" + encode(topicArn) + "&Message=" + encode(message);
        HttpRequestData request = new HttpRequestData("POST", "/", null,
                Map.of("content-type", "application/x-www-form-urlencoded; charset=utf-8"), form.getBytes(StandardCharsets.UTF_8));
        try {
            HttpResponseData response = api.handle(request, account).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (response.status() == 200) {
                return null;
            }
            String body = new String(response.body(), StandardCharsets.UTF_8);
            Matcher code = CODE.matcher(body);
            Matcher text = MESSAGE.matcher(body);
            return "SNS answered " + response.status() + (code.find() ? " " + code.group(1) : "") + (text.find() ? ": " + text.group(1) : "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "Interrupted";
        } catch (Exception e) {
            return "SNS Publish failed: " + e.getClass().getSimpleName();
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
