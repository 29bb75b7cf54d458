package io.hikyaku.protocol;

/** The two wire protocols SQS clients speak. */
public enum WireProtocol {
    /** AWS JSON 1.0: {@code X-Amz-Target: AmazonSQS.<Action>}, what current SDKs speak. */
    JSON,
    /** Query/XML: {@code Action=...&Version=2012-11-05}, what older SDKs and CLIs speak. */
    QUERY
}
