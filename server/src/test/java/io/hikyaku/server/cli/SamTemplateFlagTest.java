package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** samTemplates in the config file, replaced by HIKYAKU_SAM_TEMPLATES, replaced by --sam-template. */
class SamTemplateFlagTest {

    @TempDir
    Path dir;

    private Path template(String file, String queue) throws Exception {
        return Files.writeString(dir.resolve(file), """
                Resources:
                  fn:
                    Type: AWS::Serverless::Function
                    Properties:
                      Events:
                        E: {Type: SQS, Properties: {Queue: !GetAtt Q.Arn}}
                  Q: {Type: AWS::SQS::Queue, Properties: {QueueName: %s}}
                """.formatted(queue));
    }

    private static String queueOf(ServerConfig c) {
        return c.push().mappings().get(0).request().path("EventSourceArn").asText();
    }

    @Test
    void configFileThenEnvironmentThenFlag() throws Exception {
        template("a.yaml", "from-file");
        Path b = template("b.yaml", "from-env");
        Path c = template("c.yaml", "from-flag");
        Path config = Files.writeString(dir.resolve("hikyaku.yaml"), """
                server: {region: eu-west-1, accountId: '111122223333'}
                functions: [{name: fn, url: 'http://127.0.0.1:1/'}]
                samTemplates: [a.yaml]
                """);
        assertThat(queueOf(new ServeCommand(Map.of()).resolveConfig("--config", config.toString())))
                .isEqualTo("arn:aws:sqs:eu-west-1:111122223333:from-file");
        ServeCommand withEnv = new ServeCommand(Map.of("HIKYAKU_SAM_TEMPLATES", b.toString()));
        ServerConfig fromEnv = withEnv.resolveConfig("--config", config.toString(), "--account-id", "444455556666");
        assertThat(queueOf(fromEnv)).isEqualTo("arn:aws:sqs:eu-west-1:444455556666:from-env");
        assertThat(fromEnv.queues()).extracting(q -> q.name()).containsExactly("from-env");
        ServerConfig fromFlag = withEnv.resolveConfig("--config", config.toString(), "--sam-template", c + "," + b);
        assertThat(fromFlag.push().mappings()).hasSize(2);
        assertThat(queueOf(fromFlag)).endsWith(":from-flag");
    }

    @Test
    void aMissingTemplateFailsTheStart() {
        assertThatThrownBy(() -> new ServeCommand(Map.of()).resolveConfig("--sam-template", dir.resolve("none.yaml").toString()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cannot read SAM template");
    }
}
