package io.hikyaku.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.HttpRequestData;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Scheduler's paths route to it and never clash with queue URLs, Lambda paths or the console. */
class SchedulerRouteTest {

    private static ServiceRoute route(String method, String path, String signedFor) {
        return ServiceRoute.of(new HttpRequestData(method, path, "", Map.of(), new byte[0]), signedFor, null);
    }

    @Test
    void schedulerPathsAndScope() {
        assertThat(route("POST", "/schedules/s1", null)).isEqualTo(ServiceRoute.SCHEDULER);
        assertThat(route("GET", "/schedules", null)).isEqualTo(ServiceRoute.SCHEDULER);
        assertThat(route("GET", "/schedule-groups", null)).isEqualTo(ServiceRoute.SCHEDULER);
        assertThat(route("DELETE", "/schedule-groups/g", "scheduler")).isEqualTo(ServiceRoute.SCHEDULER);
        assertThat(route("GET", "/tags/arn:aws:scheduler:us-east-1:000000000000:schedule-group/g", null))
                .isEqualTo(ServiceRoute.SCHEDULER);
        assertThat(route("GET", "/tags/arn%3Aaws%3Ascheduler%3Aus-east-1%3A000000000000%3Aschedule-group%2Fg", null))
                .isEqualTo(ServiceRoute.SCHEDULER);
        assertThat(route("POST", "/schedules/s1", "sqs")).isNull(); // a scope for another service is refused
    }

    @Test
    void queueUrlsLambdaAndOtherTagsAreNotTheSchedulers() {
        assertThat(route("POST", "/000000000000/schedules", null)).isEqualTo(ServiceRoute.SQS);
        assertThat(route("POST", "/000000000000/schedule-groups", null)).isEqualTo(ServiceRoute.SQS);
        assertThat(route("GET", "/2015-03-31/event-source-mappings/", null)).isEqualTo(ServiceRoute.LAMBDA);
        assertThat(route("GET", "/2017-03-31/tags/arn:aws:lambda:us-east-1:000000000000:event-source-mapping:x", null))
                .isEqualTo(ServiceRoute.LAMBDA);
        assertThat(route("GET", "/tags/arn:aws:sqs:us-east-1:000000000000:q", null)).isEqualTo(ServiceRoute.SQS);
        assertThat(route("POST", "/", null)).isEqualTo(ServiceRoute.SQS);
    }
}
