package io.hikyaku.policy;

import java.util.Locale;

/**
 * The global condition keys a self-hosted server knows, and their normal form: condition key names
 * (tag keys inside {@code aws:RequestTag/...} and {@code aws:ResourceTag/...} included) are
 * case-insensitive, so they are compared lower-cased.
 */
public final class ConditionKeys {
    public static final String SOURCE_IP = "aws:SourceIp";
    public static final String SECURE_TRANSPORT = "aws:SecureTransport";
    public static final String CURRENT_TIME = "aws:CurrentTime";
    public static final String EPOCH_TIME = "aws:EpochTime";
    public static final String PRINCIPAL_ARN = "aws:PrincipalArn";
    public static final String PRINCIPAL_ACCOUNT = "aws:PrincipalAccount";
    public static final String PRINCIPAL_TYPE = "aws:PrincipalType";
    public static final String USER_ID = "aws:userid";
    public static final String USERNAME = "aws:username";
    public static final String USER_AGENT = "aws:UserAgent";
    public static final String REQUEST_TAG_PREFIX = "aws:RequestTag/";
    public static final String RESOURCE_TAG_PREFIX = "aws:ResourceTag/";
    public static final String TAG_KEYS = "aws:TagKeys";
    public static final String SOURCE_ARN = "aws:SourceArn";
    public static final String SOURCE_ACCOUNT = "aws:SourceAccount";
    public static final String RESOURCE_ACCOUNT = "aws:ResourceAccount";

    private ConditionKeys() {}

    public static String normalize(String key) {
        return key.toLowerCase(Locale.ROOT);
    }
}
