package io.hikyaku.kms;

/** The key policies AWS gives a key when none is supplied. */
final class KeyPolicies {

    private KeyPolicies() {
    }

    /** CreateKey without Policy: the account root may do everything, so the account's IAM policies decide. */
    static String defaultPolicy(String account) {
        return "{\n  \"Version\" : \"2012-10-17\",\n  \"Id\" : \"key-default-1\",\n  \"Statement\" : [ {\n"
                + "    \"Sid\" : \"Enable IAM User Permissions\",\n    \"Effect\" : \"Allow\",\n"
                + "    \"Principal\" : {\n      \"AWS\" : \"arn:aws:iam::" + account + ":root\"\n    },\n"
                + "    \"Action\" : \"kms:*\",\n    \"Resource\" : \"*\"\n  } ]\n}";
    }

    /** The AWS managed key of SQS: principals of the account may use it through SQS. */
    static String managedSqs(String account, String region) {
        return "{\n  \"Version\" : \"2012-10-17\",\n  \"Id\" : \"auto-sqs-2\",\n  \"Statement\" : [ {\n"
                + "    \"Sid\" : \"Allow access through Simple Queue Service (SQS) for all principals in the account that are authorized to use SQS\",\n"
                + "    \"Effect\" : \"Allow\",\n    \"Principal\" : {\n      \"AWS\" : \"*\"\n    },\n"
                + "    \"Action\" : [ \"kms:Encrypt\", \"kms:Decrypt\", \"kms:ReEncrypt*\", \"kms:GenerateDataKey*\", \"kms:CreateGrant\", \"kms:DescribeKey\" ],\n"
                + "    \"Resource\" : \"*\",\n    \"Condition\" : {\n      \"StringEquals\" : {\n"
                + "        \"kms:ViaService\" : \"sqs." + region + ".amazonaws.com\",\n        \"kms:CallerAccount\" : \"" + account + "\"\n      }\n    }\n  }, {\n"
                + "    \"Sid\" : \"Allow direct access to key metadata to the account\",\n    \"Effect\" : \"Allow\",\n"
                + "    \"Principal\" : {\n      \"AWS\" : \"arn:aws:iam::" + account + ":root\"\n    },\n"
                + "    \"Action\" : [ \"kms:Describe*\", \"kms:Get*\", \"kms:List*\", \"kms:RevokeGrant\" ],\n    \"Resource\" : \"*\"\n  } ]\n}";
    }
}
