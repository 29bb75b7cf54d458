package io.hikyaku.engine;

import java.util.List;

/**
 * The parsed RedriveAllowPolicy attribute. {@code redrivePermission} is allowAll, denyAll or
 * byQueue; {@code sourceQueueArns} may be null or empty unless byQueue.
 */
public record RedriveAllowPolicy(String redrivePermission, List<String> sourceQueueArns) {}
