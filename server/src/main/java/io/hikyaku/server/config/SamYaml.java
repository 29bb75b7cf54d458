package io.hikyaku.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Reads a CloudFormation / SAM template (YAML or JSON). The short-form intrinsics ({@code !Ref X},
 * {@code !GetAtt Q.Arn}, {@code !Sub ...}) become their long form ({@code {Ref: X}},
 * {@code {Fn::GetAtt: [Q, Arn]}}), so one resolver handles both spellings. Scalars stay text, as in
 * the config file.
 */
final class SamYaml {

    private static final List<String> FUNCTIONS = List.of("Base64", "Cidr", "FindInMap", "GetAtt", "GetAZs", "ImportValue",
            "Join", "Select", "Split", "Sub", "Transform", "If", "Equals", "Not", "And", "Or", "ToJsonString", "Length");

    private SamYaml() {}

    static Map<String, Object> load(Path file) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return load(reader, file.toString());
        } catch (IOException e) {
            throw new ConfigException("cannot read SAM template " + file + ": " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> load(Reader reader, String source) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        DumperOptions dumper = new DumperOptions();
        Yaml yaml = new Yaml(new IntrinsicConstructor(options), new Representer(dumper), dumper, options, new StringScalarResolver());
        Object root;
        try {
            root = yaml.load(reader);
        } catch (YAMLException e) {
            throw new ConfigException(source + ": not a valid template: " + e.getMessage(), e);
        }
        if (!(root instanceof Map<?, ?> m)) {
            throw new ConfigException(source + ": not a template (expected a mapping with Resources)");
        }
        return (Map<String, Object>) m;
    }

    /** SafeConstructor plus one construct per intrinsic tag. */
    private static final class IntrinsicConstructor extends SafeConstructor {

        IntrinsicConstructor(LoaderOptions options) {
            super(options);
            yamlConstructors.put(new Tag("!Ref"), new Intrinsic("Ref"));
            yamlConstructors.put(new Tag("!Condition"), new Intrinsic("Condition"));
            for (String f : FUNCTIONS) {
                yamlConstructors.put(new Tag("!" + f), new Intrinsic("Fn::" + f));
            }
        }

        private final class Intrinsic extends AbstractConstruct {
            private final String key;

            Intrinsic(String key) {
                this.key = key;
            }

            @Override
            public Object construct(Node node) {
                Object value;
                if (node instanceof ScalarNode s) {
                    String text = constructScalar(s);
                    // !GetAtt Resource.Attribute is the short spelling of [Resource, Attribute]
                    value = key.equals("Fn::GetAtt") && text.contains(".")
                            ? List.of(text.substring(0, text.indexOf('.')), text.substring(text.indexOf('.') + 1)) : text;
                } else if (node instanceof SequenceNode s) {
                    value = new ArrayList<>(constructSequence(s));
                } else {
                    value = new LinkedHashMap<>(constructMapping((MappingNode) node));
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put(key, value);
                return out;
            }
        }
    }
}
