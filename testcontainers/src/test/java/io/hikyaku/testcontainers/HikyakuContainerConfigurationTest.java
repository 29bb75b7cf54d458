package io.hikyaku.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.testcontainers.utility.DockerImageName;

/** What {@link HikyakuContainer} asks of the engine, checked without one (the container tests need one). */
class HikyakuContainerConfigurationTest {

    @Test
    void exposesThePortAndSetsWhatItsOptionsSay() {
        try (HikyakuContainer c = new HikyakuContainer().withInMemoryStorage().withCooldownsOff().withRegion("eu-west-1")) {
            assertThat(c.getExposedPorts()).containsExactly(9324);
            assertThat(c.getEnvMap()).containsEntry("HIKYAKU_STORAGE", "memory").containsEntry("HIKYAKU_COOLDOWNS", "off");
            assertThat(c.getRegion()).isEqualTo("eu-west-1");
        }
        try (HikyakuContainer c = new HikyakuContainer()) {
            assertThat(c.getRegion()).isEqualTo("us-east-1");
        }
    }

    @Test
    void refusesAnotherImageUnlessDeclaredASubstitute() {
        assertThatThrownBy(() -> new HikyakuContainer("redis:7")).hasMessageContaining("hikyaku");
        try (HikyakuContainer c = new HikyakuContainer(DockerImageName.parse("registry.example/team/hikyaku:0.1.0")
                .asCompatibleSubstituteFor("hikyaku"))) {
            assertThat(c.getExposedPorts()).containsExactly(9324);
        }
        assertThatThrownBy(() -> new HikyakuContainer("registry.example/team/hikyaku:0.1.0"))
                .as("another registry's copy is declared").hasMessageContaining("asCompatibleSubstituteFor");
    }
}
