package io.hikyaku.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every condition operator, each positive and negative, with IfExists, Null, the set operators, a
 * missing key, and case-insensitive key names. A request value list is separated by ';'; an empty
 * cell means the request does not carry the key.
 */
class ConditionOperatorsTest {

    private static boolean holds(String condition, String key, String values) {
        Policy p = Policies.identity("{'Version':'2012-10-17','Statement':{'Effect':'Allow','Action':'*','Resource':'*','Condition':"
                + condition + "}}");
        Map<String, List<String>> keys = values == null ? Map.of() : Map.of(key, Arrays.asList(values.split(";", -1)));
        RequestContext c = new RequestContext("arn:aws:iam::111111111111:user/alice", "111111111111", PrincipalType.USER,
                "AIDAALICE", "alice", "sqs:SendMessage", Contexts.QUEUE_ARN, "111111111111", keys);
        return p.allows(c) != Principals.Match.NONE;
    }

    @ParameterizedTest(name = "{0} with {1}={2} -> {3}")
    @CsvSource(delimiter = '|', nullValues = "", textBlock = """
        {'StringEquals':{'s:k':'abc'}}                    | s:k | abc                  | true
        {'StringEquals':{'s:k':'abc'}}                    | s:k | ABC                  | false
        {'StringEquals':{'s:k':['x','abc']}}              | s:k | abc                  | true
        {'StringEquals':{'s:k':'a*'}}                     | s:k | abc                  | false
        {'StringEquals':{'s:k':'abc'}}                    | s:k |                      | false
        {'StringNotEquals':{'s:k':'abc'}}                 | s:k | abd                  | true
        {'StringNotEquals':{'s:k':['x','abc']}}           | s:k | abc                  | false
        {'StringNotEquals':{'s:k':'abc'}}                 | s:k |                      | true
        {'StringEqualsIgnoreCase':{'s:k':'abc'}}          | s:k | AbC                  | true
        {'StringEqualsIgnoreCase':{'s:k':'abc'}}          | s:k | abd                  | false
        {'StringNotEqualsIgnoreCase':{'s:k':'abc'}}       | s:k | ABC                  | false
        {'StringNotEqualsIgnoreCase':{'s:k':'abc'}}       | s:k | xyz                  | true
        {'StringLike':{'s:k':'a*c?'}}                     | s:k | abbbcd               | true
        {'StringLike':{'s:k':'a*c?'}}                     | s:k | abbbc                | false
        {'StringLike':{'s:k':'A*'}}                       | s:k | abc                  | false
        {'StringNotLike':{'s:k':['x*','a*']}}             | s:k | abc                  | false
        {'StringLike':{'s:k':'a?c'}}                      | s:k | a😀c                 | true
        {'StringLike':{'s:k':'*😀'}}                      | s:k | xy😀                 | true
        {'StringNotLike':{'s:k':'x*'}}                    | s:k | abc                  | true
        {'NumericEquals':{'s:n':'10'}}                    | s:n | 10.0                 | true
        {'NumericEquals':{'s:n':10}}                      | s:n | 11                   | false
        {'NumericEquals':{'s:n':10}}                      | s:n | ten                  | false
        {'NumericNotEquals':{'s:n':10}}                   | s:n | 11                   | true
        {'NumericNotEquals':{'s:n':10}}                   | s:n | 10                   | false
        {'NumericLessThan':{'s:n':10}}                    | s:n | 9.5                  | true
        {'NumericLessThan':{'s:n':10}}                    | s:n | 10                   | false
        {'NumericLessThanEquals':{'s:n':10}}              | s:n | 10                   | true
        {'NumericLessThanEquals':{'s:n':10}}              | s:n | 11                   | false
        {'NumericGreaterThan':{'s:n':10}}                 | s:n | 11                   | true
        {'NumericGreaterThan':{'s:n':10}}                 | s:n | 10                   | false
        {'NumericGreaterThanEquals':{'s:n':-1}}           | s:n | -1                   | true
        {'NumericGreaterThanEquals':{'s:n':-1}}           | s:n | -2                   | false
        {'DateEquals':{'aws:CurrentTime':'2026-01-01'}}   | aws:CurrentTime | 2026-01-01T00:00:00Z | true
        {'DateEquals':{'aws:CurrentTime':'2026-01-01'}}   | aws:CurrentTime | 2026-01-01T00:00:01Z | false
        {'DateNotEquals':{'aws:EpochTime':1767225600}}    | aws:EpochTime | 1767225601     | true
        {'DateNotEquals':{'aws:EpochTime':1767225600}}    | aws:EpochTime | 2026-01-01T00:00:00Z | false
        {'DateLessThan':{'aws:CurrentTime':'2026-01-01T00:00:00Z'}}      | aws:CurrentTime | 2025-12-31T23:59:59Z | true
        {'DateLessThan':{'aws:CurrentTime':'2026-01-01T00:00:00Z'}}      | aws:CurrentTime | 2026-01-01T01:00:00+01:00 | false
        {'DateLessThanEquals':{'aws:CurrentTime':'2026-01-01T00:00:00Z'}} | aws:CurrentTime | 2026-01-01T00:00:00.000Z | true
        {'DateLessThanEquals':{'aws:CurrentTime':'2026-01-01T00:00:00Z'}} | aws:CurrentTime | 2026-01-01T00:00:00.001Z | false
        {'DateGreaterThan':{'aws:CurrentTime':'2026-01-01T00:00:00Z'}}   | aws:CurrentTime | 2026-06-01T00:00:00Z | true
        {'DateGreaterThan':{'aws:CurrentTime':'2026-01-01T00:00:00Z'}}   | aws:CurrentTime | 2025-06-01T00:00:00Z | false
        {'DateGreaterThanEquals':{'aws:CurrentTime':'2026-01-01'}}       | aws:CurrentTime | 2026-01-01T00:00:00Z | true
        {'DateGreaterThanEquals':{'aws:CurrentTime':'2026-01-01'}}       | aws:CurrentTime | not-a-date           | false
        {'DateGreaterThanEquals':{'aws:CurrentTime':'2026-01-01'}}       | aws:CurrentTime | 2026-02-30T00:00:00Z | false
        {'DateLessThan':{'aws:CurrentTime':'2026-01-01T00:00:00Z'}}      | aws:CurrentTime | 2025-12-31T23:59:59.5Z | true
        {'Bool':{'aws:SecureTransport':'true'}}           | aws:SecureTransport | true         | true
        {'Bool':{'aws:SecureTransport':true}}             | aws:SecureTransport | false        | false
        {'Bool':{'aws:SecureTransport':'false'}}          | aws:SecureTransport |              | false
        {'BinaryEquals':{'s:b':'QmluYXJ5'}}               | s:b | QmluYXJ5             | true
        {'BinaryEquals':{'s:b':'QmluYXJ5'}}               | s:b | QmluYXJa             | false
        {'IpAddress':{'aws:SourceIp':'203.0.113.0/24'}}   | aws:SourceIp | 203.0.113.77     | true
        {'IpAddress':{'aws:SourceIp':'203.0.113.0/24'}}   | aws:SourceIp | 203.0.114.1      | false
        {'IpAddress':{'aws:SourceIp':'203.0.113.9'}}      | aws:SourceIp | 203.0.113.9      | true
        {'IpAddress':{'aws:SourceIp':'203.0.113.0/25'}}   | aws:SourceIp | ::ffff:203.0.113.5 | true
        {'IpAddress':{'aws:SourceIp':'2001:db8::/32'}}    | aws:SourceIp | 2001:db8:1:2::7  | true
        {'IpAddress':{'aws:SourceIp':'2001:db8::/32'}}    | aws:SourceIp | 2001:db9::1      | false
        {'IpAddress':{'aws:SourceIp':'::1'}}              | aws:SourceIp | 0:0:0:0:0:0:0:1  | true
        {'IpAddress':{'aws:SourceIp':'10.0.0.0/8'}}       | aws:SourceIp | 2001:db8::1      | false
        {'IpAddress':{'aws:SourceIp':'0.0.0.0/0'}}        | aws:SourceIp | localhost        | false
        {'NotIpAddress':{'aws:SourceIp':['10.0.0.0/8','192.168.0.0/16']}} | aws:SourceIp | 8.8.8.8     | true
        {'NotIpAddress':{'aws:SourceIp':['10.0.0.0/8','192.168.0.0/16']}} | aws:SourceIp | 192.168.1.1 | false
        {'ArnEquals':{'aws:SourceArn':'arn:aws:sns:us-east-1:111111111111:topic'}} | aws:SourceArn | arn:aws:sns:us-east-1:111111111111:topic | true
        {'ArnEquals':{'aws:SourceArn':'arn:aws:sns:*:111111111111:*'}}   | aws:SourceArn | arn:aws:sns:eu-west-1:111111111111:t | true
        {'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:111111111111:*'}}     | aws:SourceArn | arn:aws:sns:eu-west-1:222222222222:t | false
        {'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:*:t'}}                | aws:SourceArn | arn:aws:sns:eu:1:t:x    | false
        {'ArnLike':{'aws:SourceArn':'arn:aws:s3:::bucket/*'}}            | aws:SourceArn | arn:aws:s3:::bucket/a/b | true
        {'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:*:*'}}                | aws:SourceArn | not-an-arn              | false
        {'ArnNotEquals':{'aws:SourceArn':'arn:aws:sns:*:111111111111:*'}} | aws:SourceArn | arn:aws:sns:x:222222222222:t | true
        {'ArnNotLike':{'aws:SourceArn':'arn:aws:sns:*:111111111111:*'}}  | aws:SourceArn | arn:aws:sns:x:111111111111:t | false
        {'ArnNotLike':{'aws:SourceArn':'arn:aws:sns:*:111111111111:*'}}  | aws:SourceArn |                          | true
        {'StringEqualsIfExists':{'s:k':'abc'}}            | s:k |                      | true
        {'StringEqualsIfExists':{'s:k':'abc'}}            | s:k | abd                  | false
        {'NumericLessThanIfExists':{'s:n':5}}             | s:n | 4                    | true
        {'IpAddressIfExists':{'aws:SourceIp':'10.0.0.0/8'}} | aws:SourceIp |           | true
        {'ArnLikeIfExists':{'aws:SourceArn':'arn:aws:sns:*:*:*'}} | aws:SourceArn | arn:aws:sqs:r:1:q | false
        {'Null':{'aws:SourceArn':'true'}}                 | aws:SourceArn |            | true
        {'Null':{'aws:SourceArn':'true'}}                 | aws:SourceArn | arn:aws:sns:r:1:t | false
        {'Null':{'aws:SourceArn':'false'}}                | aws:SourceArn | arn:aws:sns:r:1:t | true
        {'Null':{'aws:SourceArn':false}}                  | aws:SourceArn |            | false
        {'ForAnyValue:StringEquals':{'aws:TagKeys':['team','env']}}   | aws:TagKeys | owner;env   | true
        {'ForAnyValue:StringEquals':{'aws:TagKeys':['team','env']}}   | aws:TagKeys | owner;cost  | false
        {'ForAnyValue:StringEquals':{'aws:TagKeys':['team','env']}}   | aws:TagKeys |             | false
        {'ForAllValues:StringEquals':{'aws:TagKeys':['team','env']}}  | aws:TagKeys | team;env    | true
        {'ForAllValues:StringEquals':{'aws:TagKeys':['team','env']}}  | aws:TagKeys | team;owner  | false
        {'ForAllValues:StringEquals':{'aws:TagKeys':['team','env']}}  | aws:TagKeys |             | true
        {'ForAllValues:StringLike':{'aws:TagKeys':'app-*'}}           | aws:TagKeys | app-a;app-b | true
        {'ForAnyValue:StringNotEquals':{'aws:TagKeys':'team'}}        | aws:TagKeys | team;env    | true
        {'ForAnyValue:StringNotEquals':{'aws:TagKeys':'team'}}        | aws:TagKeys | team        | false
        {'ForAllValues:StringNotEquals':{'aws:TagKeys':['a','b']}}    | aws:TagKeys | c;d         | true
        {'ForAllValues:StringNotEquals':{'aws:TagKeys':['a','b']}}    | aws:TagKeys | c;a         | false
        {'ForAllValues:StringEqualsIfExists':{'aws:TagKeys':'x'}}     | aws:TagKeys |             | true
        {'StringEquals':{'aws:TagKeys':'env'}}                        | aws:TagKeys | team;env    | true
        {'StringNotEquals':{'aws:TagKeys':'env'}}                     | aws:TagKeys | team;env    | false
        {'StringEquals':{'AWS:SOURCEIP':'1.2.3.4'}}                   | aws:sourceip | 1.2.3.4    | true
        {'StringEquals':{'aws:RequestTag/Team':'core'}}               | aws:requesttag/team | core | true
        {'StringEquals':{'s:a':'1','s:b':'2'}}                        | s:a | 1                    | false
        """)
    void operator(String condition, String key, String requestValues, boolean expected) {
        assertThat(holds(condition, key, requestValues)).isEqualTo(expected);
    }
}
