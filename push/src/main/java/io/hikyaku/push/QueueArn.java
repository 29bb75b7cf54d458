package io.hikyaku.push;

import java.util.Optional;

/**
 * An SQS queue named by its ARN, {@code arn:aws:sqs:{region}:{account}:{name}}.
 *
 * @param region  the ARN's region
 * @param account the owning account (12 digits)
 * @param name    the queue name
 */
public record QueueArn(String region, String account, String name) {

    public static Optional<QueueArn> parse(String arn) {
        if (arn == null) {
            return Optional.empty();
        }
        String[] parts = arn.split(":", -1);
        if (parts.length != 6 || !parts[0].equals("arn") || !parts[1].startsWith("aws") || !parts[2].equals("sqs")
                || parts[3].isEmpty() || !parts[4].matches("\\d{12}") || parts[5].isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new QueueArn(parts[3], parts[4], parts[5]));
    }

    public boolean fifo() {
        return name.endsWith(".fifo");
    }

    /** The URL path the in-process SQS calls name the queue by (only the path counts, see api QueueAddress). */
    String queueUrl() {
        return QueueClient.BASE_URL + "/" + account + "/" + name;
    }

    @Override
    public String toString() {
        return "arn:aws:sqs:" + region + ":" + account + ":" + name;
    }
}
