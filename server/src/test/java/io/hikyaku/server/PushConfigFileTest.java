package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.push.DeclaredMapping;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConfigFile;
import org.junit.jupiter.api.Test;

/** The config file's functions and eventSourceMappings sections (push delivery). */
class PushConfigFileTest {

    @Test
    void readsFunctionsAndMappingsIntoLambdaApiParameters() {
        ConfigFile file = ConfigFile.parse("""
                functions:
                  - name: order-processor
                    url: http://127.0.0.1:8080/invoke
                    timeoutSeconds: 30
                    headers:
                      X-Api-Key: abc
                    signingSecret: s3cret
                  - name: defaults
                    url: https://example.com/hook
                    account: "111111111111"
                eventSourceMappings:
                  - functionName: order-processor
                    queue: orders
                    batchSize: 100
                    maximumBatchingWindowInSeconds: 5
                    functionResponseTypes: [ReportBatchItemFailures]
                    maximumConcurrency: 4
                    enabled: false
                    filters:
                      - '{"body": {"kind": ["order"]}}'
                  - functionName: defaults
                    eventSourceArn: arn:aws:sqs:us-east-1:000000000012:other
                """);
        FunctionConfig f = file.push().functions().get(0);
        assertThat(f.name()).isEqualTo("order-processor");
        assertThat(f.timeoutSeconds()).isEqualTo(30);
        assertThat(f.headers()).containsEntry("X-Api-Key", "abc");
        assertThat(f.signingSecret()).isEqualTo("s3cret");
        assertThat(file.push().functions().get(1).timeoutSeconds()).isEqualTo(FunctionConfig.DEFAULT_TIMEOUT_SECONDS);
        assertThat(f.account()).as("the default account").isNull();
        assertThat(file.push().functions().get(1).account()).isEqualTo("111111111111");
        DeclaredMapping m = file.push().mappings().get(0);
        assertThat(m.queueName()).isEqualTo("orders");
        assertThat(m.request().toString()).isEqualTo("{\"FunctionName\":\"order-processor\",\"BatchSize\":100,"
                + "\"MaximumBatchingWindowInSeconds\":5,\"ScalingConfig\":{\"MaximumConcurrency\":4},\"Enabled\":false,"
                + "\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"],"
                + "\"FilterCriteria\":{\"Filters\":[{\"Pattern\":\"{\\\"body\\\": {\\\"kind\\\": [\\\"order\\\"]}}\"}]}}");
        assertThat(file.push().mappings().get(1).queueName()).isNull();
        assertThat(file.push().mappings().get(1).request().path("EventSourceArn").asText()).isEqualTo("arn:aws:sqs:us-east-1:000000000012:other");
    }

    @Test
    void mistakesNameTheirPlace() {
        assertThatThrownBy(() -> ConfigFile.parse("functions:\n  - name: f\n    url: http://x/\n    account: alice\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("functions[0]").hasMessageContaining("12-digit");
        assertThatThrownBy(() -> ConfigFile.parse("functions:\n  - name: f\n    url: ftp://x/\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("functions[0]").hasMessageContaining("http://");
        assertThatThrownBy(() -> ConfigFile.parse("functions:\n  - name: f\n    url: http://x/\n    timeout: 3\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown key 'timeout'");
        assertThatThrownBy(() -> ConfigFile.parse("functions:\n  - name: f\n    url: http://x/\n    timeoutSeconds: 901\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("timeoutSeconds must be 1-900");
        assertThatThrownBy(() -> ConfigFile.parse("eventSourceMappings:\n  - functionName: f\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("either queue");
        assertThatThrownBy(() -> ConfigFile.parse("eventSourceMappings:\n  - functionName: f\n    queue: q\n    filters:\n      - body: {a: [1]}\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("JSON text");
    }
}
