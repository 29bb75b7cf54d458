package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.pushtests.support.JavaEndpoint;
import io.hikyaku.pushtests.support.PushTestBase;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A real Terraform run (the {@code terraform} binary and the hashicorp/aws provider from a local
 * provider mirror, no network) that creates, reads back without drift, updates and destroys an
 * {@code aws_lambda_event_source_mapping} with every SQS-relevant argument, and a message delivered
 * through the mapping Terraform made. The mirror is {@code $HIKYAKU_TF_PLUGIN_DIR}, default
 * {@code /opt/tf-plugins}; without terraform or the provider the test is skipped with that reason.
 */
class TerraformMappingTest extends PushTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private JavaEndpoint endpointFn;

    @TempDir
    Path dir;

    @Override
    protected List<FunctionConfig> functions() throws Exception {
        endpointFn = new JavaEndpoint(null);
        closeables.add(endpointFn);
        return List.of(new FunctionConfig("tf-fn", endpointFn.url(), 10, Map.of(), null));
    }

    private record Run(int exit, String output) {}

    private Run terraform(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("terraform"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString());
        pb.environment().put("TF_IN_AUTOMATION", "1");
        pb.environment().put("CHECKPOINT_DISABLE", "1");
        pb.environment().remove("TF_LOG");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("terraform " + String.join(" ", args) + " finished").isTrue();
        return new Run(p.exitValue(), out);
    }

    private static Path pluginDir() {
        String configured = System.getenv("HIKYAKU_TF_PLUGIN_DIR");
        return Path.of(configured == null || configured.isBlank() ? "/opt/tf-plugins" : configured);
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    private void writeConfig(String queueName, String mappingArguments) throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws" }
                  }
                }
                provider "aws" {
                  region                      = "%s"
                  access_key                  = "test"
                  secret_key                  = "test"
                  skip_credentials_validation = true
                  skip_requesting_account_id  = true
                  skip_metadata_api_check     = true
                  endpoints {
                    sqs    = "%s"
                    lambda = "%s"
                  }
                }
                resource "aws_lambda_event_source_mapping" "orders" {
                  function_name    = "tf-fn"
                  event_source_arn = "%s"
                %s
                }
                """.formatted(REGION, endpoint, endpoint, arn(queueName), mappingArguments));
    }

    @Test
    void terraformCreatesReadsUpdatesAndDestroysAMapping() throws Exception {
        Path plugins = pluginDir().resolve("registry.terraform.io/hashicorp/aws");
        assumeTrue(onPath("terraform"), "terraform is not on the PATH");
        assumeTrue(Files.isDirectory(plugins), "no hashicorp/aws provider in the mirror " + plugins);
        Files.writeString(dir.resolve("cli.tfrc"), """
                provider_installation {
                  filesystem_mirror {
                    path    = "%s"
                    include = ["registry.terraform.io/hashicorp/aws"]
                  }
                  direct {
                    exclude = ["registry.terraform.io/hashicorp/aws"]
                  }
                }
                """.formatted(pluginDir()));
        String queue = uniqueName("tf-orders");
        String queueUrl = createQueue(queue, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "60"));
        writeConfig(queue, """
                  batch_size                         = 20
                  maximum_batching_window_in_seconds = 1
                  function_response_types            = ["ReportBatchItemFailures"]
                  scaling_config { maximum_concurrency = 5 }
                  filter_criteria {
                    filter { pattern = jsonencode({ messageAttributes = { kind = { stringValue = ["order"] } } }) }
                  }
                  tags = { team = "orders" }
                """);
        Run init = terraform("init", "-input=false", "-no-color");
        assertThat(init.exit()).as(init.output()).isZero();

        Run create = terraform("apply", "-auto-approve", "-input=false", "-no-color");
        assertThat(create.exit()).as(create.output()).isZero();
        JsonNode list = lambda("GET", "/2015-03-31/event-source-mappings/?EventSourceArn=" + arn(queue), null).body();
        assertThat(list.path("EventSourceMappings")).hasSize(1);
        JsonNode m = list.path("EventSourceMappings").get(0);
        String uuid = m.path("UUID").asText();
        assertThat(m.path("State").asText()).isEqualTo("Enabled");
        assertThat(m.path("BatchSize").asInt()).isEqualTo(20);
        assertThat(m.path("MaximumBatchingWindowInSeconds").asInt()).isEqualTo(1);
        assertThat(m.path("ScalingConfig").path("MaximumConcurrency").asInt()).isEqualTo(5);
        assertThat(m.path("FunctionResponseTypes").get(0).asText()).isEqualTo("ReportBatchItemFailures");
        assertThat(m.path("FunctionArn").asText()).isEqualTo("arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:tf-fn");
        assertThat(JSON.readTree(m.path("FilterCriteria").path("Filters").get(0).path("Pattern").asText()))
                .isEqualTo(JSON.readTree("{\"messageAttributes\":{\"kind\":{\"stringValue\":[\"order\"]}}}"));
        assertThat(tags(m.path("EventSourceMappingArn").asText())).isEqualTo(JSON.readTree("{\"team\":\"orders\"}"));

        // the mapping Terraform made delivers
        sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("order 1").messageAttributes(
                Map.of("kind", MessageAttributeValue.builder().dataType("String").stringValue("order").build())));
        await("the poller holds the message", WAIT, () -> inFlight(queueUrl) == 1);
        advance(Duration.ofSeconds(2)); // the batching window (1 s) runs on the server's clock
        await("the message delivered", WAIT, () -> endpointFn.recordsFor(arn(queue)).size() == 1);
        await("the message deleted", WAIT, () -> depth(queueUrl) == 0);

        // what Terraform reads back matches what it wrote: no drift
        Run plan = terraform("plan", "-detailed-exitcode", "-input=false", "-no-color");
        assertThat(plan.exit()).as(plan.output()).isZero();

        writeConfig(queue, """
                  batch_size                         = 5
                  enabled                            = false
                  function_response_types            = []
                  tags = { team = "billing" }
                """);
        Run update = terraform("apply", "-auto-approve", "-input=false", "-no-color");
        assertThat(update.exit()).as(update.output()).isZero();
        assertThat(update.output()).contains("1 changed");
        JsonNode updated = lambda("GET", "/2015-03-31/event-source-mappings/" + uuid, null).body();
        assertThat(updated.path("State").asText()).isEqualTo("Disabled");
        assertThat(updated.path("BatchSize").asInt()).isEqualTo(5);
        assertThat(updated.path("MaximumBatchingWindowInSeconds").asInt()).isZero();
        assertThat(updated.has("FilterCriteria")).isFalse();
        assertThat(updated.has("ScalingConfig")).isFalse();
        assertThat(updated.path("FunctionResponseTypes")).isEmpty();
        assertThat(tags(updated.path("EventSourceMappingArn").asText())).isEqualTo(JSON.readTree("{\"team\":\"billing\"}"));
        plan = terraform("plan", "-detailed-exitcode", "-input=false", "-no-color");
        assertThat(plan.exit()).as(plan.output()).isZero();

        Run destroy = terraform("destroy", "-auto-approve", "-input=false", "-no-color");
        assertThat(destroy.exit()).as(destroy.output()).isZero();
        LambdaResponse gone = lambda("GET", "/2015-03-31/event-source-mappings/" + uuid, null);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.errorType()).isEqualTo("ResourceNotFoundException");
    }

    private long inFlight(String queueUrl) {
        return Long.parseLong(sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributes().get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    private JsonNode tags(String mappingArn) throws Exception {
        LambdaResponse r = lambda("GET", "/2017-03-31/tags/" + java.net.URLEncoder.encode(mappingArn, StandardCharsets.UTF_8), null);
        assertThat(r.status()).as(r.body().toString()).isEqualTo(200);
        return r.body().path("Tags");
    }
}
