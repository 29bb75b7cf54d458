package io.hikyaku.bench.jmh;

import io.hikyaku.policy.Decision;
import io.hikyaku.policy.Policy;
import io.hikyaku.policy.PolicyEvaluator;
import io.hikyaku.policy.PolicyException;
import io.hikyaku.policy.PolicyKind;
import io.hikyaku.policy.PrincipalType;
import io.hikyaku.policy.RequestContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What authorization costs per request: parsing a typical queue policy (done once per document,
 * then cached) and evaluating a cross-account SendMessage against an identity policy and that queue
 * policy (done per request). {@code jsonTreeOfQueuePolicy} is the baseline: Jackson alone on the same text.
 * Run: java -cp bench/target/hikyaku-bench.jar org.openjdk.jmh.Main 'io.hikyaku.bench.jmh.PolicyBenchmarks'
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@State(Scope.Thread)
public class PolicyBenchmarks {

    static final String QUEUE = "arn:aws:sqs:us-east-1:111111111111:orders";

    /** Four statements: a deny without TLS, a cross-account grant with conditions, a topic grant, a read grant. */
    static final String QUEUE_POLICY = ("{'Version':'2012-10-17','Id':'orders-policy','Statement':["
            + "{'Sid':'tls','Effect':'Deny','Principal':'*','Action':'sqs:*','Resource':'" + QUEUE + "',"
            + "'Condition':{'Bool':{'aws:SecureTransport':'false'}}},"
            + "{'Sid':'partner','Effect':'Allow','Principal':{'AWS':['arn:aws:iam::222222222222:root','333333333333']},"
            + "'Action':['sqs:SendMessage','sqs:GetQueueUrl','sqs:GetQueueAttributes'],'Resource':'" + QUEUE + "',"
            + "'Condition':{'IpAddress':{'aws:SourceIp':['10.0.0.0/8','2001:db8::/32']},"
            + "'DateLessThan':{'aws:CurrentTime':'2030-01-01T00:00:00Z'}}},"
            + "{'Sid':'topic','Effect':'Allow','Principal':{'Service':'sns.amazonaws.com'},'Action':'sqs:SendMessage',"
            + "'Resource':'" + QUEUE + "','Condition':{'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:111111111111:orders-*'}}},"
            + "{'Sid':'readers','Effect':'Allow','Principal':{'AWS':'arn:aws:iam::444444444444:role/reader'},"
            + "'Action':['sqs:ReceiveMessage','sqs:DeleteMessage'],'Resource':'" + QUEUE + "'}]}").replace('\'', '"');

    static final String IDENTITY_POLICY = ("{'Version':'2012-10-17','Statement':[{'Effect':'Allow',"
            + "'Action':['sqs:Send*','sqs:Get*'],'Resource':'arn:aws:sqs:*:111111111111:*'}]}").replace('\'', '"');

    final Policy queuePolicy;
    final List<Policy> identity;
    final RequestContext request = new RequestContext("arn:aws:iam::222222222222:user/bob", "222222222222",
            PrincipalType.USER, "AIDABOB000000000", "bob", "sqs:SendMessage", QUEUE, "111111111111",
            Map.of("aws:SourceIp", List.of("10.1.2.3"), "aws:SecureTransport", List.of("true"),
                    "aws:CurrentTime", List.of("2026-12-05T12:00:00Z"), "aws:EpochTime", List.of("1796472000")));

    public PolicyBenchmarks() {
        try {
            queuePolicy = Policy.parse(QUEUE_POLICY, PolicyKind.RESOURCE);
            identity = List.of(Policy.parse(IDENTITY_POLICY, PolicyKind.IDENTITY));
        } catch (PolicyException e) {
            throw new IllegalStateException(e);
        }
    }

    static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** Baseline for parseQueuePolicy: Jackson reading the same document into a tree, nothing else. */
    @Benchmark
    public Object jsonTreeOfQueuePolicy() throws Exception {
        return JSON.readTree(QUEUE_POLICY);
    }

    @Benchmark
    public Policy parseQueuePolicy() throws PolicyException {
        return Policy.parse(QUEUE_POLICY, PolicyKind.RESOURCE);
    }

    @Benchmark
    public Decision evaluateCrossAccountSend() {
        Decision d = PolicyEvaluator.evaluate(request, identity, queuePolicy, null);
        if (!d.allowed()) {
            throw new IllegalStateException(d.toString());
        }
        return d;
    }
}
