package io.hikyaku.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A document is parsed once per kind; the cache is bounded; invalid documents are refused and not kept. */
class PolicyCacheTest {

    private static final String DOC = Policies.json("{'Statement':{'Effect':'Allow','Principal':'*','Action':'sqs:*','Resource':'*'}}");

    @Test
    void parsedOnceAndShared() throws Exception {
        PolicyCache cache = new PolicyCache(10);
        Policy first = cache.get(DOC, PolicyKind.RESOURCE);
        assertThat(cache.get(new String(DOC.toCharArray()), PolicyKind.RESOURCE)).isSameAs(first);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void theKindIsPartOfTheKey() throws Exception {
        PolicyCache cache = new PolicyCache(10);
        cache.get(DOC, PolicyKind.RESOURCE);
        assertThatThrownBy(() -> cache.get(DOC, PolicyKind.IDENTITY)).isInstanceOf(PolicyException.class);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void boundedLeastRecentlyUsedFirst() throws Exception {
        PolicyCache cache = new PolicyCache(2);
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
    void invalidDocumentsAreNotCached() {
        PolicyCache cache = new PolicyCache(10);
        assertThatThrownBy(() -> cache.get("{", PolicyKind.RESOURCE)).isInstanceOf(PolicyException.class);
        assertThat(cache.size()).isZero();
    }
}
