package io.hikyaku.testcontainers;

import com.github.dockerjava.api.model.PortBinding;
import java.util.List;
import org.testcontainers.containers.GenericContainer;

/**
 * Publishes a container's port on one fixed loopback port. By default Testcontainers publishes a random
 * port on every address; the machines these tests run on allow only loopback ports in 9800-9899.
 */
final class LoopbackPort {

    private LoopbackPort() {}

    static <T extends GenericContainer<T>> T bind(T container, int hostPort, int containerPort) {
        return container.withCreateContainerCmdModifier(cmd -> cmd.getHostConfig()
                .withPortBindings(List.of(PortBinding.parse("127.0.0.1:" + hostPort + ":" + containerPort))));
    }
}
