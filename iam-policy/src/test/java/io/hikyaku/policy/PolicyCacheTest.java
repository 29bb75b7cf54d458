package io.hikyaku.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A document is parsed once per kind; the cache is bounded; invalid documents are refused and not kept. */
class PolicyCacheTest {

    private static final String DOC = Policies.json("{'Statement':{'Effect':'Allow','Principal':'*','Action':'sqs:*','Resource':'*'}}");

    @Test
    void parsedOnceAndShared() throws Exception {
        PolicyCache cache = new PolicyCache(10, 1 << 20);
        Policy first = cache.get(DOC, PolicyKind.RESOURCE);
        assertThat(cache.get(new String(DOC.toCharArray()), PolicyKind.RESOURCE)).isSameAs(first);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void theKindIsPartOfTheKey() throws Exception {
        PolicyCache cache = new PolicyCache(10, 1 << 20);
        cache.get(DOC, PolicyKind.RESOURCE);
        assertThatThrownBy(() -> cache.get(DOC, PolicyKind.IDENTITY)).isInstanceOf(PolicyException.class);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void boundedLeastRecentlyUsedFirst() throws Exception {
        PolicyCache cache = new PolicyCache(2, 1 << 20);
        String a = DOC.replace("sqs:*", "sqs:A");
        String b = DOC.replace("sqs:*", "sqs:B");
        String c = DOC.replace("sqs:*", "sqs:C");
        Policy pa = cache.get(a, PolicyKind.RESOURCE);
        cache.get(b, PolicyKind.RESOURCE);
        cache.get(a, PolicyKind.RESOURCE);
        cache.get(c, PolicyKind.RESOURCE);
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.get(a, PolicyKind.RESOURCE)).isSameAs(pa);
    }

    @Test
    void boundedByTheLengthOfTheDocuments() throws Exception {
        PolicyCache cache = new PolicyCache(100, DOC.length() * 3L);
        for (int i = 0; i < 10; i++) {
            cache.get(DOC.replace("sqs:*", "sqs:" + (char) ('A' + i)), PolicyKind.RESOURCE);
        }
        assertThat(cache.size()).isEqualTo(3);
        // a document longer than the whole budget is still returned (and kept alone)
        PolicyCache tiny = new PolicyCache(100, 10);
        assertThat(tiny.get(DOC, PolicyKind.RESOURCE)).isNotNull();
        assertThat(tiny.size()).isEqualTo(1);
    }

    @Test
    void invalidDocumentsAreNotCached() {
        PolicyCache cache = new PolicyCache(10, 1 << 20);
        assertThatThrownBy(() -> cache.get("{", PolicyKind.RESOURCE)).isInstanceOf(PolicyException.class);
        assertThat(cache.size()).isZero();
    }
}
