package io.hikyaku.testcontainers;

import java.net.URI;
import java.time.Duration;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * Hikyaku's image ({@code ./hikyaku image}, loaded as {@code hikyaku:latest}) in a container: the SQS API (and
 * SNS, KMS, Scheduler, CloudWatch) on port {@value #PORT}, started once {@code /health/ready} answers 200.
 * Give {@link #getEndpoint()} to an SDK as its endpoint override, with any credentials and {@link #getRegion()}.
 * Storage is durable in the container's {@code /data} volume unless {@link #withInMemoryStorage()}.
 */
public class HikyakuContainer extends GenericContainer<HikyakuContainer> {

    /** The image {@code ./hikyaku image} writes; a copy in a registry under another name needs {@code asCompatibleSubstituteFor("hikyaku")}. */
    public static final DockerImageName DEFAULT_IMAGE = DockerImageName.parse("hikyaku:latest");
    /** The port the image serves on. */
    public static final int PORT = 9324;
    /** Where {@link #withConfigFile} puts the file inside the container. */
    static final String CONFIG_PATH = "/etc/hikyaku/hikyaku.yaml";
    private static final String DEFAULT_REGION = "us-east-1";

    public HikyakuContainer() {
        this(DEFAULT_IMAGE);
    }

    public HikyakuContainer(String image) {
        this(DockerImageName.parse(image));
    }

    public HikyakuContainer(DockerImageName image) {
        super(image);
        image.assertCompatibleWith(DockerImageName.parse("hikyaku"));
        withExposedPorts(PORT);
        // ready means the configured queues exist and the store is open, not just that the port is bound
        waitingFor(Wait.forHttp("/health/ready").forPort(PORT).forStatusCode(200).withStartupTimeout(Duration.ofSeconds(90)));
    }

    /** The endpoint to give an SDK, e.g. {@code SqsClient.builder().endpointOverride(container.getEndpoint())}. */
    public URI getEndpoint() {
        return URI.create("http://" + getHost() + ":" + getMappedPort(PORT));
    }

    /** The region in the server's ARNs: {@code HIKYAKU_REGION} if set here, else us-east-1. */
    public String getRegion() {
        return getEnvMap().getOrDefault("HIKYAKU_REGION", DEFAULT_REGION);
    }

    /** Keeps nothing on disk: a faster start, and every container begins empty. */
    public HikyakuContainer withInMemoryStorage() {
        return withEnv("HIKYAKU_STORAGE", "memory");
    }

    /** Drops SQS's 60 s waits after PurgeQueue and DeleteQueue, for suites that purge or recreate queues. */
    public HikyakuContainer withCooldownsOff() {
        return withEnv("HIKYAKU_COOLDOWNS", "off");
    }

    /** The region written into ARNs. */
    public HikyakuContainer withRegion(String region) {
        return withEnv("HIKYAKU_REGION", region);
    }

    /** A YAML config file (server settings, queues to create at start) copied into the container and used. */
    public HikyakuContainer withConfigFile(MountableFile file) {
        return withCopyFileToContainer(file, CONFIG_PATH).withEnv("HIKYAKU_CONFIG", CONFIG_PATH);
    }
}
