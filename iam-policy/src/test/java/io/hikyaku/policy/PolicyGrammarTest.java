package io.hikyaku.policy;

import static io.hikyaku.policy.Policies.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the parser accepts and what it refuses, each refusal with its precise reason. */
class PolicyGrammarTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        statement as an object            | {'Statement':{'Effect':'Allow','Principal':'*','Action':'sqs:*','Resource':'*'}}
        statement as an array             | {'Version':'2012-10-17','Statement':[{'Effect':'Allow','Principal':'*','Action':'sqs:*','Resource':'*'}]}
        empty statement list              | {'Version':'2012-10-17','Statement':[]}
        legacy version and Id             | {'Version':'2008-10-17','Id':'q/SQSDefaultPolicy','Statement':[{'Sid':'a','Effect':'Deny','Principal':{'AWS':'*'},'Action':'SQS:ReceiveMessage','Resource':'*'}]}
        account id principal              | {'Statement':{'Effect':'Allow','Principal':{'AWS':'222222222222'},'Action':'sqs:SendMessage','Resource':'*'}}
        principal list of every ARN form  | {'Statement':{'Effect':'Allow','Principal':{'AWS':['arn:aws:iam::222222222222:root','arn:aws:iam::222222222222:user/path/bob','arn:aws:iam::222222222222:role/worker','arn:aws:sts::222222222222:assumed-role/worker/s1','arn:aws:sts::222222222222:federated-user/fed','AIDAEXAMPLE12345678','AROAEXAMPLE12345678']},'Action':'sqs:SendMessage','Resource':'*'}}
        service and other principal types | {'Statement':{'Effect':'Allow','Principal':{'Service':'sns.amazonaws.com','Federated':'cognito-identity.amazonaws.com','CanonicalUser':'79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be'},'Action':'sqs:SendMessage','Resource':'*'}}
        NotPrincipal NotAction NotResource| {'Statement':{'Effect':'Deny','NotPrincipal':{'AWS':'111111111111'},'NotAction':['sqs:Get*','sqs:List?ueues'],'NotResource':'arn:aws:sqs:*:111111111111:keep-*'}}
        legacy SQS resource               | {'Statement':{'Effect':'Allow','Principal':'*','Action':'sqs:SendMessage','Resource':'111111111111/orders'}}
        every operator and qualifier      | {'Version':'2012-10-17','Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'StringEqualsIfExists':{'aws:username':'a'},'ForAnyValue:StringLike':{'aws:TagKeys':['t*']},'ForAllValues:StringNotEqualsIgnoreCase':{'aws:TagKeys':'X'},'NumericLessThanEquals':{'s:n':10},'DateGreaterThan':{'aws:CurrentTime':'2020-01-01T00:00:00Z'},'Bool':{'aws:SecureTransport':true},'BinaryEquals':{'s:b':'AAEC'},'NotIpAddress':{'aws:SourceIp':['10.0.0.0/8','2001:db8::/32']},'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:111111111111:*'},'Null':{'aws:userid':'false'}}}}
        operator names in any case        | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'stringequals':{'AWS:USERNAME':'a'},'forallvalues:stringlikeifexists':{'aws:TagKeys':'a'}}}}
        policy variables                  | {'Version':'2012-10-17','Statement':{'Effect':'Allow','Action':'sqs:*','Resource':'arn:aws:sqs:*:*:${aws:username}-*'}}
        """)
    void accepted(String name, String document) throws Exception {
        PolicyKind kind = document.contains("Principal") ? PolicyKind.RESOURCE : PolicyKind.IDENTITY;
        assertThat(Policy.parse(json(document), kind).statements()).isNotNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        not JSON                        | {                                                                                       | not valid JSON
        trailing content                | {'Statement':[]} x                                                                      | not valid JSON
        duplicate key                   | {'Statement':[],'Statement':[]}                                                         | not valid JSON
        array document                  | []                                                                                      | must be a JSON object
        unknown top-level element       | {'Statement':[],'Foo':1}                                                                | Unknown element "Foo" in policy
        bad version                     | {'Version':'2012-10-18','Statement':[]}                                                 | Invalid Version "2012-10-18"
        no statement                    | {'Version':'2012-10-17'}                                                                | Missing required element Statement
        statement not object            | {'Statement':'x'}                                                                       | Statement must be an object or an array
        statement item not object       | {'Statement':[1]}                                                                       | Statement 1 must be a JSON object
        unknown statement element       | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Foo':1}}   | Unknown element "Foo" in statement 1
        no effect                       | {'Statement':{'Principal':'*','Action':'*','Resource':'*'}}                            | Missing required element Effect in statement 1
        bad effect                      | {'Statement':{'Effect':'allow','Principal':'*','Action':'*','Resource':'*'}}           | Invalid Effect "allow"
        no principal                    | {'Statement':{'Effect':'Allow','Action':'*','Resource':'*'}}                           | Missing required element Principal in statement 1
        both principal forms            | {'Statement':{'Effect':'Allow','Principal':'*','NotPrincipal':'*','Action':'*','Resource':'*'}} | Only one of Principal and NotPrincipal
        principal string not star       | {'Statement':{'Effect':'Allow','Principal':'bob','Action':'*','Resource':'*'}}         | Invalid Principal "bob"
        partial wildcard principal      | {'Statement':{'Effect':'Allow','Principal':{'AWS':'arn:aws:iam::1111*'},'Action':'*','Resource':'*'}} | cannot contain wildcards
        unknown principal form          | {'Statement':{'Effect':'Allow','Principal':{'AWS':'bob'},'Action':'*','Resource':'*'}} | Invalid principal "bob"
        unknown principal type          | {'Statement':{'Effect':'Allow','Principal':{'Bob':'x'},'Action':'*','Resource':'*'}}   | Unknown element "Bob" in Principal
        empty principal object          | {'Statement':{'Effect':'Allow','Principal':{},'Action':'*','Resource':'*'}}            | must be "*" or an object
        empty principal list            | {'Statement':{'Effect':'Allow','Principal':{'AWS':[]},'Action':'*','Resource':'*'}}    | non-empty array
        no action                       | {'Statement':{'Effect':'Allow','Principal':'*','Resource':'*'}}                        | Exactly one of Action and NotAction
        both action forms               | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','NotAction':'*','Resource':'*'}} | Exactly one of Action and NotAction
        action without service          | {'Statement':{'Effect':'Allow','Principal':'*','Action':'SendMessage','Resource':'*'}} | Invalid Action "SendMessage"
        action not a string             | {'Statement':{'Effect':'Allow','Principal':'*','Action':7,'Resource':'*'}}             | must be a string or a non-empty array
        both resource forms             | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','NotResource':'*'}} | Only one of Resource and NotResource
        unknown operator                | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'StringSorta':{'aws:username':'a'}}}} | Unknown condition operator "StringSorta"
        Null with IfExists              | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'NullIfExists':{'aws:username':'true'}}}} | The Null operator takes neither IfExists
        Null with a set operator        | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'ForAnyValue:Null':{'aws:username':'true'}}}} | The Null operator takes neither
        key without prefix              | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'StringEquals':{'username':'a'}}}} | Invalid condition key "username"
        object as condition value       | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'StringEquals':{'aws:username':{}}}}} | must be a string, number or boolean
        empty condition value list      | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'StringEquals':{'aws:username':[]}}}} | Empty value list
        number operator with text       | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'NumericEquals':{'s:n':'ten'}}}} | NumericEquals needs a number, not "ten"
        date operator with text         | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'DateLessThan':{'aws:CurrentTime':'soon'}}}} | DateLessThan needs an ISO 8601 date
        Bool with text                  | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'Bool':{'aws:SecureTransport':'yes'}}}} | Bool needs true or false
        BinaryEquals not base64         | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'BinaryEquals':{'s:b':'!!'}}}} | BinaryEquals needs base64
        bad CIDR                        | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'IpAddress':{'aws:SourceIp':'10.0.0.0/33'}}}} | Invalid IP address or CIDR block
        bad IPv6                        | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'IpAddress':{'aws:SourceIp':'2001:db8::1::2'}}}} | Invalid IP address or CIDR block
        unterminated variable           | {'Version':'2012-10-17','Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'arn:aws:sqs:*:*:${aws:username'}} | Unterminated policy variable
        NotPrincipal with Allow         | {'Statement':{'Effect':'Allow','NotPrincipal':{'AWS':'111111111111'},'Action':'*','Resource':'*'}} | NotPrincipal is supported only with Effect Deny
        duplicate Sid                   | {'Statement':[{'Sid':'a','Effect':'Allow','Principal':'*','Action':'*','Resource':'*'},{'Sid':'a','Effect':'Deny','Principal':'*','Action':'*','Resource':'*'}]} | Duplicate Sid "a"
        """)
    void refusedAsResourcePolicy(String name, String document, String reason) {
        assertThatThrownBy(() -> Policy.parse(json(document), PolicyKind.RESOURCE))
                .isInstanceOf(PolicyException.class).hasMessageContaining(reason);
    }

    /** SQS stores these queue policies as given (AWS-validated tests set them); the parts that name no ARN match nothing. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        no resource              | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*'}}
        resource not an ARN      | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'queue_arn'}}
        ARN operator without ARN | {'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*','Condition':{'ArnEquals':{'aws:SourceArn':'topic_arn'}}}}
        """)
    void acceptedInAQueuePolicyOnly(String name, String document) throws Exception {
        assertThat(Policy.parse(json(document), PolicyKind.RESOURCE).statements()).hasSize(1);
        String identity = json(document).replace("'Principal':'*',".replace('\'', '"'), "");
        assertThatThrownBy(() -> Policy.parse(identity, PolicyKind.IDENTITY)).isInstanceOf(PolicyException.class);
    }

    @Test
    void identityPoliciesNameNoPrincipal() {
        assertThatThrownBy(() -> Policy.parse(json("{'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*'}}"),
                PolicyKind.IDENTITY)).hasMessageContaining("not allowed in an identity or session policy");
    }

    @Test
    void trustPoliciesNeedNoResourceButIdentityPoliciesDo() throws Exception {
        String trust = json("{'Version':'2012-10-17','Statement':[{'Effect':'Allow','Principal':{'AWS':'arn:aws:iam::222222222222:root'},'Action':'sts:AssumeRole'}]}");
        assertThat(Policy.parse(trust, PolicyKind.TRUST).statements().get(0).resources()).isEmpty();
        assertThatThrownBy(() -> Policy.parse(json("{'Statement':{'Effect':'Allow','Action':'*'}}"), PolicyKind.IDENTITY))
                .hasMessageContaining("Exactly one of Resource and NotResource");
    }

    @Test
    void trustPoliciesTakeNoNotPrincipal() {
        assertThatThrownBy(() -> Policy.parse(json("{'Statement':{'Effect':'Deny','NotPrincipal':{'AWS':'111111111111'},"
                + "'Action':'sts:AssumeRole'}}"), PolicyKind.TRUST)).hasMessageContaining("NotPrincipal is supported only");
    }

    @Test
    void legacyResourceFormOnlyInResourcePolicies() {
        assertThatThrownBy(() -> Policy.parse(json("{'Statement':{'Effect':'Allow','Action':'*','Resource':'111111111111/orders'}}"),
                PolicyKind.IDENTITY)).hasMessageContaining("Invalid Resource \"111111111111/orders\"");
    }

    @Test
    void theModelKeepsWhatWasWritten() throws Exception {
        Policy p = Policy.parse(json("{'Version':'2008-10-17','Id':'x/SQSDefaultPolicy','Statement':[{'Sid':'s1','Effect':'Deny',"
                + "'NotPrincipal':{'AWS':'111111111111'},'NotAction':['sqs:SendMessage'],'Resource':['arn:aws:sqs:*:*:a','*'],"
                + "'Condition':{'ForAllValues:StringLikeIfExists':{'aws:TagKeys':['a','b']}}}]}"), PolicyKind.RESOURCE);
        assertThat(p.version()).isEqualTo("2008-10-17");
        assertThat(p.id()).isEqualTo("x/SQSDefaultPolicy");
        Statement s = p.statements().get(0);
        assertThat(s.sid()).isEqualTo("s1");
        assertThat(s.effect()).isEqualTo(Effect.DENY);
        assertThat(s.isNotPrincipal()).isTrue();
        assertThat(s.isNotAction()).isTrue();
        assertThat(s.actions()).containsExactly("sqs:SendMessage");
        assertThat(s.resources()).containsExactly("arn:aws:sqs:*:*:a", "*");
        Condition c = s.conditions().get(0);
        assertThat(c.qualifier()).isEqualTo(Condition.Qualifier.FOR_ALL_VALUES);
        assertThat(c.ifExists()).isTrue();
        assertThat(c.key()).isEqualTo("aws:TagKeys");
        assertThat(c.values()).containsExactly("a", "b");
        assertThat(c.operator()).isEqualTo("ForAllValues:StringLikeIfExists");
        assertThatThrownBy(() -> p.statements().add(s)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theAddPermissionPolicyParses() throws Exception {
        String generated = "{\"Version\":\"2008-10-17\",\"Id\":\"arn:aws:sqs:us-east-1:111111111111:orders/SQSDefaultPolicy\","
                + "\"Statement\":[{\"Sid\":\"readers\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":[\"arn:aws:iam::222222222222:root\","
                + "\"arn:aws:iam::333333333333:root\"]},\"Action\":[\"SQS:ReceiveMessage\",\"SQS:DeleteMessage\"],"
                + "\"Resource\":\"arn:aws:sqs:us-east-1:111111111111:orders\"}]}";
        assertThat(Policy.parse(generated, PolicyKind.RESOURCE).statements()).hasSize(1);
    }
}
