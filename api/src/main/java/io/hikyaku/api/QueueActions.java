package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.Durable;
import io.hikyaku.engine.QueueInfo;
import io.hikyaku.engine.QueuePage;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.protocol.ApiRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The queue-level actions: lifecycle, attributes, tags, permissions, listings, purge. */
final class QueueActions {

    private static final String MAX_RESULTS_REASON = "Must be between 1 and 1000, if provided.";

    private final EngineGate gate;
    private final Receiver receiver;

    QueueActions(EngineGate gate, Receiver receiver) {
        this.gate = gate;
        this.receiver = receiver;
    }

    CompletableFuture<ObjectNode> createQueue(CallContext context, Input in) {
        String name = in.queue().name(); // the caller's account: the queue authorized
        var attributes = QueueAttributesReader.read(in.stringMap("Attributes"));
        Map<String, String> tags = in.stringMap("tags");
        if (tags.isEmpty()) {
            tags = in.stringMap("Tags"); // lenient: some clients capitalise it
        }
        tags = TagRules.check(tags);
        TagRules.checkCount(name, Map.of(), tags);
        Map<String, String> given = tags.isEmpty() ? null : tags;
        return gate.write((engine, now) -> gate.<QueueInfo>apply(new Command.CreateQueue(
                        new CreateQueue(context.accountId(), context.region(), name, attributes, given, now))))
                .thenApply(info -> Json.object().put("QueueUrl", QueueAddress.url(context.baseUrl(), info.ref())));
    }

    CompletableFuture<ObjectNode> deleteQueue(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        Completions completions = new Completions();
        List<Durable<Void>> holder = new ArrayList<>(1);
        gate.step(() -> {
            holder.add(gate.apply(new Command.DeleteQueue(queue, gate.now())));
            receiver.queueDeleted(queue, completions);
        });
        completions.run();
        return gate.whenDurable(holder.get(0)).thenApply(v -> Json.object());
    }

    CompletableFuture<ObjectNode> getQueueUrl(CallContext context, Input in) {
        QueueRef ref = in.queue(); // QueueName in QueueOwnerAWSAccountId or the caller's account
        QueueInfo info = gate.read((engine, now) -> engine.getQueue(ref));
        return done(Json.object().put("QueueUrl", QueueAddress.url(context.baseUrl(), info.ref())));
    }

    CompletableFuture<ObjectNode> listQueues(CallContext context, Input in) {
        String prefix = in.string("QueueNamePrefix");
        Integer max = maxResults(in);
        String token = in.string("NextToken");
        QueuePage page = gate.read((engine, now) -> engine.listQueues(context.accountId(), prefix, max, token));
        ObjectNode out = Json.object();
        if (!page.queues().isEmpty()) {
            out.set("QueueUrls", urls(context, page));
        }
        Json.putIfPresent(out, "NextToken", page.nextToken());
        return done(out);
    }

    CompletableFuture<ObjectNode> listDeadLetterSourceQueues(CallContext context, ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        Integer max = maxResults(in);
        String token = in.string("NextToken");
        QueuePage page = gate.read((engine, now) -> engine.listDeadLetterSourceQueues(queue, max, token));
        ObjectNode out = Json.object();
        out.set("queueUrls", urls(context, page)); // a required member: present even when empty
        Json.putIfPresent(out, "NextToken", page.nextToken());
        return done(out);
    }

    CompletableFuture<ObjectNode> getQueueAttributes(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        List<String> names = in.stringList("AttributeNames");
        Map<String, String> attributes = gate.read((engine, now) -> {
            gate.apply(new Command.Advance(queue, now)); // what is due by now, so the read itself writes nothing
            return engine.readQueueAttributes(queue, names);
        });
        ObjectNode out = Json.object();
        if (!attributes.isEmpty()) {
            out.set("Attributes", Json.stringMap(attributes));
        }
        return done(out);
    }

    CompletableFuture<ObjectNode> setQueueAttributes(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        if (!in.has("Attributes")) {
            throw Errors.missing("Attributes");
        }
        var update = QueueAttributesReader.read(in.stringMap("Attributes"));
        return gate.write((engine, now) -> gate.apply(new Command.SetQueueAttributes(queue, update, now)))
                .thenApply(v -> Json.object());
    }

    CompletableFuture<ObjectNode> purgeQueue(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        return gate.write((engine, now) -> gate.apply(new Command.PurgeQueue(queue, now))).thenApply(v -> Json.object());
    }

    CompletableFuture<ObjectNode> listQueueTags(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        Map<String, String> tags = gate.read((engine, now) -> engine.listQueueTags(queue));
        ObjectNode out = Json.object();
        if (!tags.isEmpty()) {
            out.set("Tags", Json.stringMap(tags));
        }
        return done(out);
    }

    CompletableFuture<ObjectNode> tagQueue(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        Map<String, String> tags = TagRules.check(in.stringMap("Tags"));
        if (tags.isEmpty()) {
            throw Errors.missing("Tags"); // an empty map too, in both protocols (sqs-behaviours 89)
        }
        return gate.write((engine, now) -> {
            TagRules.checkCount(queue.name(), engine.listQueueTags(queue), tags); // same applier step as the change
            return gate.apply(new Command.TagQueue(queue, tags, now));
        }).thenApply(v -> Json.object());
    }

    CompletableFuture<ObjectNode> untagQueue(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        if (!in.has("TagKeys") && !in.isQuery()) {
            throw Errors.missing("TagKeys");
        }
        List<String> keys = in.stringList("TagKeys");
        if (keys.isEmpty()) {
            // sqs-behaviours 90; over Query an empty list is no TagKey.N at all
            throw Errors.invalidParameter(TagRules.KEY_LENGTH);
        }
        return gate.write((engine, now) -> gate.apply(new Command.UntagQueue(queue, keys, now))).thenApply(v -> Json.object());
    }

    CompletableFuture<ObjectNode> addPermission(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        String label = in.requiredString("Label");
        List<String> accounts = in.stringList("AWSAccountIds");
        if (accounts.isEmpty()) {
            throw Errors.missing("AWSAccountIds");
        }
        List<String> actions = in.stringList("Actions");
        if (actions.isEmpty()) {
            throw Errors.missing("Actions");
        }
        PermissionRules.checkLabel(label);
        PermissionRules.checkAccounts(accounts);
        PermissionRules.checkActions(actions);
        return gate.write((engine, now) -> gate.apply(new Command.AddPermission(queue, label, accounts, actions, now)))
                .thenApply(v -> Json.object());
    }

    CompletableFuture<ObjectNode> removePermission(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        String label = in.requiredString("Label");
        return gate.write((engine, now) -> gate.apply(new Command.RemovePermission(queue, label, now)))
                .thenApply(v -> Json.object());
    }

    private static ArrayNode urls(CallContext context, QueuePage page) {
        ArrayNode urls = Json.array();
        for (QueueInfo q : page.queues()) {
            urls.add(QueueAddress.url(context.baseUrl(), q.ref()));
        }
        return urls;
    }

    /** MaxResults as given (the engine checks 1..1000); values beyond an int are refused here. */
    private static Integer maxResults(Input in) {
        Long v = in.integer("MaxResults", MAX_RESULTS_REASON);
        if (v == null) {
            return null;
        }
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw Errors.invalidValue("MaxResults", v, MAX_RESULTS_REASON);
        }
        return (int) (long) v;
    }

    /** A read's answer, once every change before it is durable. */
    private CompletableFuture<ObjectNode> done(ObjectNode out) {
        return gate.afterWrites(out);
    }
}
