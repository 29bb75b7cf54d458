package io.hikyaku.server.config;

import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads every plain scalar as a string (only {@code ~}, {@code null} and empty stay null). YAML 1.1
 * would turn {@code accountId: 000000000012} into the octal number 10 and {@code yes} into true;
 * here the text is kept and each setting parses its own value.
 */
final class StringScalarResolver extends Resolver {

    @Override
    protected void addImplicitResolvers() {
        addImplicitResolver(Tag.NULL, NULL, "~nN\0");
        addImplicitResolver(Tag.NULL, EMPTY, null);
    }
}
