package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.command.Applied;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * The deterministic SQS queue state machine. Not thread-safe: one thread makes every call (the
 * api's shard host gives each engine one applier thread). Every command carries its {@code now}
 * (epoch millis) and generated ids; nothing here reads a clock or a random source.
 *
 * <p>One door for state changes: {@link #apply(Command)} (and {@link #tick}, the same as applying
 * {@link Command.Tick}). The per-action handlers it dispatches to are private; everything else
 * public is a pure query, a setting made before the first command, or {@link #digest()}. A command
 * writes one store batch (plus, first, one of the timers due at its time) and gives
 * {@link Applied.Done}; a refusal is {@link Applied.Refused}, found before the command changes
 * anything (timers that were due at {@code now} may still have been processed and written).
 *
 * <p>Validation split: the api checks request formats that need no queue (body characters,
 * attribute name syntax, id syntax, WaitTimeSeconds range, batch entry ids, JSON parsing of
 * RedrivePolicy / RedriveAllowPolicy). The engine checks queue names, queue attribute names and
 * values, FIFO rules, message size, DelaySeconds / VisibilityTimeout / MaxNumberOfMessages ranges,
 * receipt handles and every rule that depends on state.
 */
public final class QueueEngine {

    /** Per queue, visible messages indexed at most unless a load says otherwise (ENGINE.md "Memory"). */
    public static final long DEFAULT_INDEX_WINDOW = IndexBudget.DEFAULT_WINDOW;
    static final long PURGE_WINDOW_MS = 60_000;
    /** A tick with nothing else to write stores the applied time at most this often (command time). */
    static final long APPLIED_AT_EVERY_MS = 1_000;
    static final long MAX_VISIBILITY_MS = 43_200_000L;
    private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,80}");
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final Store store;
    private final Receiver receiver;
    private final ReadAhead readAhead;
    private final String defaultRegion;
    /** The bound on indexed messages and dedup entries (ENGINE.md "Memory"). */
    final IndexBudget budget;
    final Registry queues;
    /** Spilled tails: messages stored but not indexed, paged in as heads drain. */
    final Tails tails;
    /** Store keys of purged and deleted queues, removed in chunks by the tick. */
    final Cleanups cleanups;
    /**
     * With several shards: keys of queue ids with no record at all that shard 0 found at load (a
     * deleted queue of any shard whose cleanup a restart cut short). Removed in chunks of their own
     * and left out of the digest, so what other shards left behind never changes this shard's state.
     */
    final Cleanups orphans;
    /** Sends refused because the budget was used up (RequestThrottled), for the server's log. */
    private long refusedSends;
    private final DeletedNames deletedNames = new DeletedNames();
    final MoveTasks tasks;
    /** Queues that gained visible messages outside tick (lazy timers, DLQ moves); tick reports them. */
    private final Set<QueueRef> pendingWakeups = new LinkedHashSet<>();
    private long queueIdCounter;
    /** The queue id counter as loaded: new queues get ids above it (the journal records it). */
    private long idFloor;
    /** The accounts this engine serves (all of them unless several engines share the store). */
    final EngineShard shard;
    private EngineEvents events = EngineEvents.NONE;
    private AccessListener accessListener = AccessListener.NONE;
    /** The time of the last command applied (the load counts as one): commands arrive in time order. */
    private long appliedAt;
    /** The time stored under META "applied-at" (written by ticks; Long.MIN_VALUE: none yet). */
    private long storedAppliedAt = Long.MIN_VALUE;
    /**
     * False (`--cooldowns off`, a deviation from SQS for test suites): no 60 s wait after PurgeQueue
     * or before a deleted queue's name is free again, and a DeduplicationScope change applies at once.
     */
    private boolean cooldowns = true;

    /** Loads all state from {@code store}; {@code defaultRegion} is used when a command gives none. */
    public QueueEngine(Store store, String defaultRegion) {
        this(store, defaultRegion, QueueState.INFLIGHT_LIMIT, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * Loads all state from {@code store} as a command stamped {@code loadedAt}: messages whose
     * delay or visibility ended by then come back visible directly (cheaper for big backlogs).
     */
    public QueueEngine(Store store, String defaultRegion, long loadedAt) {
        this(store, defaultRegion, QueueState.INFLIGHT_LIMIT, loadedAt, Long.MAX_VALUE);
    }

    /**
     * Like {@link #QueueEngine(Store, String, long)} with an index budget: at most
     * {@code maxIndexedMessages} messages (over all queues) are held in memory, the rest stay in
     * the store and are paged in as queues drain (ENGINE.md "Memory").
     */
    public QueueEngine(Store store, String defaultRegion, long loadedAt, long maxIndexedMessages) {
        this(store, defaultRegion, QueueState.INFLIGHT_LIMIT, loadedAt, maxIndexedMessages, IndexBudget.DEFAULT_WINDOW);
    }

    /**
     * Like {@link #QueueEngine(Store, String, long, long)} with a per-queue window: a queue indexes
     * at most {@code indexWindow} visible messages; the rest of its backlog stays in
     * the store and is paged in as the head drains (a store that keeps nothing on disk has no window).
     */
    public QueueEngine(Store store, String defaultRegion, long loadedAt, long maxIndexedMessages, long indexWindow) {
        this(store, defaultRegion, QueueState.INFLIGHT_LIMIT, loadedAt, maxIndexedMessages, indexWindow);
    }

    /** With another in-flight limit per queue (tests). */
    QueueEngine(Store store, String defaultRegion, int inflightLimit) {
        this(store, defaultRegion, inflightLimit, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    QueueEngine(Store store, String defaultRegion, int inflightLimit, long loadedAt, long maxIndexedMessages) {
        this(store, defaultRegion, inflightLimit, loadedAt, maxIndexedMessages, IndexBudget.DEFAULT_WINDOW);
    }

    QueueEngine(Store store, String defaultRegion, int inflightLimit, long loadedAt, long maxIndexedMessages,
                long indexWindow) {
        this(store, defaultRegion, inflightLimit, loadedAt, maxIndexedMessages, indexWindow, EngineShard.ONLY);
    }

    /**
     * Like {@link #QueueEngine(Store, String, long, long, long)} for one shard of several over the
     * same store: it loads, and serves, only the accounts {@code shard} owns ({@link EngineShard}).
     */
    public QueueEngine(Store store, String defaultRegion, long loadedAt, long maxIndexedMessages, long indexWindow,
                       EngineShard shard) {
        this(store, defaultRegion, QueueState.INFLIGHT_LIMIT, loadedAt, maxIndexedMessages, indexWindow, shard);
    }

    /**
     * Like {@link #QueueEngine(Store, String, long, long, long, EngineShard)}, allocating queue ids
     * above {@code idFloor} at least (the floor a server's shard had at this load, which the journal
     * recorded: the replay's store holds only this shard's queues, the server's held every shard's).
     */
    public QueueEngine(Store store, String defaultRegion, long loadedAt, long maxIndexedMessages, long indexWindow,
                       EngineShard shard, long idFloor) {
        this(store, defaultRegion, QueueState.INFLIGHT_LIMIT, loadedAt, maxIndexedMessages, indexWindow, shard,
                idFloor);
    }

    QueueEngine(Store store, String defaultRegion, int inflightLimit, long loadedAt, long maxIndexedMessages,
                long indexWindow, EngineShard shard) {
        this(store, defaultRegion, inflightLimit, loadedAt, maxIndexedMessages, indexWindow, shard, 0);
    }

    private QueueEngine(Store store, String defaultRegion, int inflightLimit, long loadedAt, long maxIndexedMessages,
                long indexWindow, EngineShard shard, long idFloor) {
        this.shard = shard;
        this.receiver = new Receiver(this, inflightLimit);
        this.readAhead = new ReadAhead(store);
        this.store = store;
        this.defaultRegion = defaultRegion;
        // A store that keeps nothing on disk cannot hold a tail: no window (sends are refused only by the budget).
        this.budget = new IndexBudget(maxIndexedMessages, store.isEphemeral() ? Long.MAX_VALUE : indexWindow);
        this.queues = new Registry(budget);
        this.tails = new Tails(store, budget);
        this.cleanups = new Cleanups(store);
        this.orphans = new Cleanups(store);
        this.tasks = new MoveTasks(this);
        this.appliedAt = loadedAt;
        new Loader(this, store, loadedAt).load();
        this.queueIdCounter = Math.max(queueIdCounter, idFloor);
        this.idFloor = queueIdCounter;
    }

    /** Where events that no result shows go (metrics); {@link EngineEvents#NONE} by default. */
    public void setEvents(EngineEvents events) {
        this.events = events == null ? EngineEvents.NONE : events;
    }

    /** Where changes of a queue's Policy and tags go; {@link AccessListener#NONE} by default. */
    public void setAccessListener(AccessListener listener) {
        this.accessListener = listener == null ? AccessListener.NONE : listener;
    }

    /** Every queue's Policy and tags as of now (to build a copy that {@link AccessListener} then keeps current). */
    public void forEachAccess(AccessListener out) {
        for (QueueState q : queues.byId.values()) {
            out.changed(q.ref(), accessOf(q));
        }
    }

    private static QueueAccess accessOf(QueueState q) {
        return new QueueAccess(q.settings.values.get(AttributeRules.POLICY), q.tags);
    }

    private void accessChanged(QueueState q) {
        accessListener.changed(q.ref(), accessOf(q));
    }

    /** The time of the last command applied; the next command must not be stamped earlier. */
    public long appliedAt() {
        return appliedAt;
    }

    /**
     * Time never goes back: a command stamped before the last applied one would make deadlines
     * already passed pending again. The caller's sequencer prevents it; this catches a caller that does not.
     */
    private void at(long now) {
        if (now < appliedAt) {
            throw new IllegalStateException("time went back: a command stamped " + now
                    + " arrived after one stamped " + appliedAt + " (commands must be stamped in order)");
        }
        appliedAt = now;
    }

    /** Sets whether SQS's 60-second waits apply (default true); set once, before the first command. */
    public void cooldowns(boolean on) {
        this.cooldowns = on;
    }

    // ---- memory ----

    /** The index budget: messages (and FIFO dedup entries) the engine holds in memory at most. */
    public long indexBudget() {
        return budget.limit;
    }

    /** Messages held in the in-memory index now, over all queues. */
    public long indexedMessages() {
        return budget.indexed;
    }

    /** Per queue, how many visible messages are indexed at most (Long.MAX_VALUE: no window). */
    public long indexWindow() {
        return budget.window;
    }

    /** Messages kept in the store only (spilled tails), counted as visible, paged in as queues drain. */
    public long spilledMessages() {
        return budget.spilled;
    }

    /** Sends refused with RequestThrottled since start because the budget was used up. */
    public long refusedSends() {
        return refusedSends;
    }

    /** The budget and what uses it now, in one read (metrics). */
    public IndexUsage indexUsage() {
        return new IndexUsage(budget.limit, budget.indexed, budget.spilled, budget.dedup);
    }

    // ---- loader hooks ----

    /** The stored last applied time: the load starts there unless it was given a later one. */
    void loadedAppliedAt(long value) {
        storedAppliedAt = value;
        appliedAt = Math.max(appliedAt, value);
    }

    /** The highest queue id the store has seen (any shard's); this engine allocates above it. */
    void loadedQueueIdCounter(long value) {
        queueIdCounter = Math.max(queueIdCounter, value);
    }

    void loadedDeletedName(String account, String name, long deletedAt) {
        deletedNames.loaded(account, name, deletedAt);
    }

    // ---- queues ---------------------------------------------------------------------------

    /** CreateQueue: idempotent for equal attributes, else QueueNameExists; QueueDeletedRecently. */
    private Durable<QueueInfo> createQueue(CreateQueue c) {
        at(c.now());
        Map<String, String> raw = c.attributes() == null || c.attributes().values() == null
                ? Map.of() : c.attributes().values();
        String name = c.name();
        if (name == null || name.isEmpty()) {
            throw Texts.missing("QueueName");
        }
        boolean fifo = raw.get("FifoQueue") != null && raw.get("FifoQueue").trim().equalsIgnoreCase("true");
        checkQueueName(name, fifo);
        Map<String, String> request = AttributeRules.normalize(raw, fifo, true);
        QueueState existing = queues.find(new QueueRef(c.accountId(), name));
        if (existing != null) {
            for (Map.Entry<String, String> e : RedriveRules.canonical(request, c.attributes()).entrySet()) {
                if (!e.getValue().equals(existing.settings.values.get(e.getKey()))
                        && !(e.getValue().isEmpty() && !existing.settings.values.containsKey(e.getKey()))) {
                    throw new EngineException(ErrorTypes.QUEUE_NAME_EXISTS,
                            "A queue already exists with the same name and a different value for attribute " + e.getKey());
                }
            }
            return commit(new StoreBatch(), existing.info());
        }
        if (cooldowns && deletedNames.isBlocked(c.accountId(), name, c.now())) {
            throw new EngineException(ErrorTypes.QUEUE_DELETED_RECENTLY, Texts.DELETED_RECENTLY);
        }
        String region = c.region() == null ? defaultRegion : c.region();
        String arn = "arn:aws:sqs:" + region + ":" + c.accountId() + ":" + name;
        RedrivePolicy rp = RedriveRules.check(queues, request, c.attributes(), arn, c.accountId(), region, fifo, null);
        Map<String, String> values = AttributeRules.apply(QueueSettings.defaults(fifo).values,
                RedriveRules.canonical(request, c.attributes()));
        RedriveAllowPolicy rap = RedriveRules.checkAllow(request, c.attributes(), null);
        StoreBatch b = new StoreBatch();
        deletedNames.forget(c.accountId(), name, b);
        if (!shard.owns(c.accountId())) {
            throw new IllegalStateException("account " + c.accountId() + " belongs to another engine shard");
        }
        long id = queueIdCounter = shard.nextQueueId(queueIdCounter);
        b.put(Keyspace.META, shard.counterKey(), Enc.version(1).i64(queueIdCounter).done());
        QueueState q = new QueueState(id, c.accountId(), name, region, fifo, c.now(), new QueueSettings(values, rp, rap));
        if (c.tags() != null) {
            q.tags.putAll(c.tags());
        }
        q.writeRecord(b);
        queues.add(q);
        accessChanged(q);
        return commit(b, q.info());
    }

    private static void checkQueueName(String name, boolean fifo) {
        boolean dotFifo = name.endsWith(".fifo");
        String base = dotFifo ? name.substring(0, name.length() - 5) : name;
        if (fifo && (!dotFifo || base.isEmpty() || !QUEUE_NAME.matcher(base).matches() || name.length() > 80)) {
            throw Texts.invalidParameter(Texts.FIFO_NAME_RULE);
        }
        if (!fifo && (dotFifo || !QUEUE_NAME.matcher(name).matches())) {
            throw Texts.invalidParameter(Texts.QUEUE_NAME_RULE);
        }
    }

    /** GetQueueUrl and the lookup behind every queue command; throws QueueDoesNotExist. */
    public QueueInfo getQueue(QueueRef queue) {
        return queues.require(queue).info();
    }

    /** The account of the source queue a message move task handle names, or null when it does not decode. */
    public static String accountOfTaskHandle(String handle) {
        return MoveTask.accountOfHandle(handle);
    }

    /**
     * The source queue ARN a message move task handle names, or null when it does not decode (or
     * names a key twice): the parser CancelMessageMoveTask itself uses, so what is authorized is what is cancelled.
     */
    public static String sourceArnOfTaskHandle(String handle) {
        return MoveTask.sourceArnOfHandle(handle);
    }

    /** Which accounts this engine serves. */
    public EngineShard shard() {
        return shard;
    }

    /** The queue's Policy and tags for authorization, or null when there is no such queue; a pure read. */
    public QueueAccess access(QueueRef queue) {
        QueueState q = queues.find(queue);
        return q == null ? null : accessOf(q);
    }

    /** The queue whose ARN this is, or null (any account). */
    public QueueInfo findQueueByArn(String arn) {
        QueueState q = arn == null ? null : queues.byArn.get(arn);
        return q == null ? null : q.info();
    }

    /**
     * DeleteQueue: the queue is gone at once; its messages' store keys are removed afterwards in
     * chunks by the tick ({@link Cleanups}; the loader skips them meanwhile).
     */
    private Durable<Void> deleteQueue(QueueRef queue, long now) {
        at(now);
        QueueState q = queues.require(queue);
        StoreBatch b = new StoreBatch();
        q.resetIndexes(b);
        tails.forget(q);
        cleanups.add(q.id, Long.MAX_VALUE);
        b.delete(Keyspace.QUEUES, Keys.queue(q.id));
        b.delete(Keyspace.META, Keys.seqReservation(q.id));
        b.delete(Keyspace.META, Keys.purgeBound(q.id));
        queues.remove(q);
        accessListener.changed(q.ref(), null);
        deletedNames.deleted(q.accountId, q.name, now, b);
        return commit(b, null);
    }

    /**
     * ListQueues of one account, names starting with {@code prefix} (null = all), in name order.
     * {@code maxResults} null = up to 1000 and no token; else 1..1000 (InvalidParameterValue).
     */
    public QueuePage listQueues(String accountId, String prefix, Integer maxResults, String nextToken) {
        PageTokens.checkMaxResults(maxResults, 1000);
        TreeMap<String, QueueState> names = queues.namesOf(accountId);
        String after = PageTokens.decode(nextToken);
        String from = prefix == null ? "" : prefix;
        var view = after != null && after.compareTo(from) >= 0 ? names.tailMap(after, false) : names.tailMap(from, true);
        List<QueueInfo> out = new ArrayList<>();
        int limit = maxResults == null ? 1000 : maxResults;
        boolean more = false;
        for (QueueState q : view.values()) {
            if (!q.name.startsWith(from)) {
                break;
            }
            if (out.size() == limit) {
                more = true;
                break;
            }
            out.add(q.info());
        }
        String token = more && maxResults != null ? PageTokens.encode(out.get(out.size() - 1).name()) : null;
        return new QueuePage(out, token);
    }

    private static void checkReadable(Collection<String> names) {
        for (String n : names) {
            if (!AttributeRules.READABLE.contains(n)) {
                throw Texts.unknownAttribute(n);
            }
        }
    }

    private static Map<String, String> attributesOf(QueueState q, Collection<String> names) {
        boolean all = names.contains("All");
        Map<String, String> v = new TreeMap<>(q.settings.values);
        v.put("ApproximateNumberOfMessages", Long.toString(q.visibleCount()));
        v.put("ApproximateNumberOfMessagesNotVisible", Integer.toString(q.inflight));
        v.put("ApproximateNumberOfMessagesDelayed", Integer.toString(q.delayed));
        v.put("CreatedTimestamp", Long.toString(q.createdAt / 1000));
        v.put("LastModifiedTimestamp", Long.toString(q.lastModifiedAt / 1000));
        v.put("QueueArn", q.arn);
        if (!all) {
            v.keySet().retainAll(Set.copyOf(names));
        }
        return v;
    }

    private Durable<Void> setQueueAttributes(QueueRef queue, AttributeUpdate attributes, long now) {
        at(now);
        QueueState q = queues.require(queue);
        Map<String, String> raw = attributes == null || attributes.values() == null ? Map.of() : attributes.values();
        Map<String, String> request = AttributeRules.normalize(raw, q.fifo, false);
        RedrivePolicy rp = RedriveRules.check(queues, request, attributes, q.arn, q.accountId, q.region, q.fifo,
                q.settings.redrivePolicy);
        Map<String, String> values = AttributeRules.apply(q.settings.values, RedriveRules.canonical(request, attributes));
        RedriveAllowPolicy rap = RedriveRules.checkAllow(request, attributes, q.settings.redriveAllowPolicy);
        touch(q, now);
        if (request.containsKey(AttributeRules.POLICY)) {
            q.permissions.clear();
        }
        QueueSettings next = new QueueSettings(values, rp, rap);
        if (q.fifo && next.dedupPerGroup != q.settings.dedupPerGroup && cooldowns) {
            q.dedupScopeChanged(now); // the old scope keeps deduplicating while the change propagates
        }
        q.settings = next;
        q.lastModifiedAt = now;
        accessChanged(q);
        StoreBatch b = new StoreBatch();
        q.writeRecord(b);
        // a shorter retention period may expire messages now
        if (q.advance(now, b)) {
            pendingWakeups.add(q.ref());
        }
        return finish(q, b, null);
    }

    private Durable<Void> tagQueue(QueueRef queue, Map<String, String> tags, long now) {
        at(now);
        QueueState q = queues.require(queue);
        q.tags.putAll(tags);
        accessChanged(q);
        StoreBatch b = new StoreBatch();
        q.writeRecord(b);
        return commit(b, null);
    }

    private Durable<Void> untagQueue(QueueRef queue, Collection<String> tagKeys, long now) {
        at(now);
        QueueState q = queues.require(queue);
        tagKeys.forEach(q.tags::remove);
        accessChanged(q);
        StoreBatch b = new StoreBatch();
        q.writeRecord(b);
        return commit(b, null);
    }

    public Map<String, String> listQueueTags(QueueRef queue) {
        return new TreeMap<>(queues.require(queue).tags);
    }

    /**
     * AddPermission: {@code accountIds} are 12-digit ids (become arn:aws:iam::{id}:root),
     * {@code actions} are action names without prefix ("ReceiveMessage", "*"). A Policy set
     * directly with SetQueueAttributes is replaced by the statements added with AddPermission.
     */
    private Durable<Void> addPermission(QueueRef queue, String label, List<String> accountIds, List<String> actions,
                                       long now) {
        at(now);
        QueueState q = queues.require(queue);
        for (PolicyDocument.Statement s : q.permissions) {
            if (s.label().equals(label)) {
                throw Texts.invalidValue(label, "Label", "Already exists.");
            }
        }
        PolicyDocument.Statement added = new PolicyDocument.Statement(label, List.copyOf(accountIds), List.copyOf(actions));
        PolicyDocument.checkQuotas(q.arn, q.permissions, added);
        q.permissions.add(added);
        return writePolicy(q, now);
    }

    private Durable<Void> removePermission(QueueRef queue, String label, long now) {
        at(now);
        QueueState q = queues.require(queue);
        if (!q.permissions.removeIf(s -> s.label().equals(label))) {
            throw Texts.invalidValue(label, "Label", "can't find label.");
        }
        return writePolicy(q, now);
    }

    private Durable<Void> writePolicy(QueueState q, long now) {
        Map<String, String> values = new TreeMap<>(q.settings.values);
        if (q.permissions.isEmpty()) {
            values.remove(AttributeRules.POLICY);
        } else {
            values.put(AttributeRules.POLICY, PolicyDocument.json(q.arn, q.permissions));
        }
        q.settings = new QueueSettings(values, q.settings.redrivePolicy, q.settings.redriveAllowPolicy);
        accessChanged(q);
        StoreBatch b = new StoreBatch();
        q.writeRecord(b);
        return commit(b, null);
    }

    /** PurgeQueue; a second one within 60 s -> PurgeQueueInProgress. */
    private Durable<Void> purgeQueue(QueueRef queue, long now) {
        at(now);
        QueueState q = queues.require(queue);
        if (cooldowns && q.lastPurgeAt != Long.MIN_VALUE && now < q.lastPurgeAt + PURGE_WINDOW_MS) {
            throw new EngineException(ErrorTypes.PURGE_QUEUE_IN_PROGRESS,
                    "Only one PurgeQueue operation on " + q.name + " is allowed every 60 seconds.");
        }
        StoreBatch b = new StoreBatch();
        // Every message below this seq (indexed or spilled) is gone at once; the loader skips
        // them and the tick removes their keys in chunks.
        q.resetIndexes(b);
        tails.forget(q);
        q.purgedBelow = q.nextSeq;
        b.put(Keyspace.META, Keys.purgeBound(q.id), Enc.version(1).i64(q.purgedBelow).done());
        cleanups.add(q.id, q.purgedBelow);
        q.lastPurgeAt = now;
        q.writeRecord(b);
        return finish(q, b, null);
    }

    /** Queues whose RedrivePolicy targets {@code queue}; paging as {@link #listQueues}. */
    public QueuePage listDeadLetterSourceQueues(QueueRef queue, Integer maxResults, String nextToken) {
        QueueState dlq = queues.require(queue);
        PageTokens.checkMaxResults(maxResults, 1000);
        String after = PageTokens.decode(nextToken);
        TreeMap<String, QueueState> sources = new TreeMap<>();
        for (QueueState q : queues.byId.values()) {
            RedrivePolicy rp = q.settings.redrivePolicy;
            if (rp != null && dlq.arn.equals(rp.deadLetterTargetArn())) {
                sources.put(q.arn, q);
            }
        }
        var view = after == null ? sources : sources.tailMap(after, false);
        int limit = maxResults == null ? 1000 : maxResults;
        List<QueueInfo> out = new ArrayList<>();
        boolean more = false;
        for (QueueState q : view.values()) {
            if (out.size() == limit) {
                more = true;
                break;
            }
            out.add(q.info());
        }
        String token = more && maxResults != null ? PageTokens.encode(out.get(out.size() - 1).arn()) : null;
        return new QueuePage(out, token);
    }

    /** True when some queue's RedrivePolicy targets {@code q}. */
    boolean isDeadLetterQueue(QueueState dlq) {
        for (QueueState q : queues.byId.values()) {
            RedrivePolicy rp = q.settings.redrivePolicy;
            if (rp != null && dlq.arn.equals(rp.deadLetterTargetArn())) {
                return true;
            }
        }
        return false;
    }

    // ---- messages -------------------------------------------------------------------------

    private Durable<SendResult> sendMessage(QueueRef queue, SendMessage message, long now) {
        at(now);
        QueueState q = queues.require(queue);
        touch(q, now);
        checkRoom(q);
        StoreBatch b = new StoreBatch();
        SendResult r = sendOne(q, message, now, b, false);
        return finish(q, b, r);
    }

    /**
     * {@link Command.SendOnce}: a send, unless its source's record (one point read) shows it happened;
     * the record is written in the message's batch, so the send and the record are durable together.
     */
    private Durable<SendResult> sendOnce(Command.SendOnce c) {
        at(c.now());
        QueueState q = queues.require(c.queue());
        byte[] key = Keys.sentOnce(q.accountId, c.source());
        byte[] seen = store.get(Keyspace.HOUSEKEEPING, key);
        if (seen != null) {
            SentOnce before = SentOnce.decode(seen);
            if (before.covers(c.generation(), c.position())) {
                events.deduplicated(q.ref());
                return new Durable<>(new SendResult(before.messageId(), null), DONE);
            }
        }
        touch(q, c.now());
        checkRoom(q);
        StoreBatch b = new StoreBatch();
        SendResult r = sendOne(q, c.message(), c.now(), b, false);
        b.put(Keyspace.HOUSEKEEPING, key, new SentOnce(c.generation(), c.position(), r.messageId()).encode());
        return finish(q, b, r);
    }

    /**
     * SendMessageBatch: one store batch for all entries. Whole-request errors (FIFO entry without
     * MessageGroupId or without dedup id when needed) are thrown as InvalidParameterValue; per-entry
     * errors (e.g. size) come back in the list, in entry order.
     */
    private Durable<List<BatchOutcome<SendResult>>> sendMessageBatch(QueueRef queue, List<SendMessage> messages,
                                                                    long now) {
        at(now);
        QueueState q = queues.require(queue);
        if (q.fifo) {
            for (SendMessage m : messages) {
                if (m.groupId() == null) {
                    throw Texts.invalidParameter("The request must contain the parameter MessageGroupId.");
                }
                if (m.deduplicationId() == null && !q.settings.contentBasedDeduplication) {
                    throw Texts.invalidParameter(Texts.NEED_DEDUP);
                }
            }
        }
        touch(q, now);
        checkRoom(q);
        StoreBatch b = new StoreBatch();
        List<BatchOutcome<SendResult>> out = new ArrayList<>();
        for (SendMessage m : messages) {
            try {
                out.add(new BatchOutcome<>(sendOne(q, m, now, b, true), null));
            } catch (EngineException e) {
                out.add(new BatchOutcome<>(null, e));
            }
        }
        return finish(q, b, out);
    }

    /**
     * Refuses a send with RequestThrottled (403; SDKs retry it) when memory would pass the budget:
     * on a FIFO queue when the deduplication entries fill it, and on a store that keeps nothing on
     * disk (a spilled tail would live on the heap just the same) when the index is full. A durable
     * store spills instead. Receives and deletes are never refused, so the backlog drains.
     */
    private void checkRoom(QueueState q) {
        if (q.fifo && budget.dedupFull()) {
            refusedSends++;
            events.sendRefused(q.ref());
            throw new EngineException(ErrorTypes.REQUEST_THROTTLED, Texts.DEDUP_BUDGET_FULL);
        }
        if (store.isEphemeral() && !budget.admits(q)) {
            refusedSends++;
            events.sendRefused(q.ref());
            throw new EngineException(ErrorTypes.REQUEST_THROTTLED, Texts.INDEX_BUDGET_FULL);
        }
    }

    private SendResult sendOne(QueueState q, SendMessage m, long now, StoreBatch b, boolean inBatch) {
        SendRules.check(q, m, inBatch);
        String dedupId = null;
        String scopeKey = null;
        if (q.fifo) {
            dedupId = m.deduplicationId() != null ? m.deduplicationId() : SendRules.sha256Hex(m.body());
            scopeKey = q.dedupPerGroup(now) ? m.groupId() + "\0" + dedupId : dedupId;
            DedupEntry seen = q.dedup.get(scopeKey);
            if (seen != null && seen.expiresAt() > now) {
                events.deduplicated(q.ref());
                return new SendResult(seen.messageId(), SendRules.wireSequenceNumber(q, seen.sequenceNumber()));
            }
        }
        int delay = q.fifo || m.delaySeconds() == null ? q.settings.delaySeconds : m.delaySeconds();
        long seq = q.allocateSeq(b);
        String seqNo = q.fifo ? SendRules.sequenceNumber(seq) : null;
        StoredMessage sm = new StoredMessage(m.groupId(), now, now + delay * 1000L, m.messageId(), m.body(),
                m.attributes() == null ? Map.of() : m.attributes(), m.awsTraceHeader(), dedupId, m.senderId(), seqNo, null,
                m.bodyDigest());
        insert(q, seq, sm, now, b);
        if (q.fifo) {
            q.putDedup(new DedupEntry(scopeKey, m.messageId(), seqNo, now + QueueState.DEDUP_WINDOW_MS), b);
        }
        return new SendResult(m.messageId(), seqNo == null ? null : SendRules.wireSequenceNumber(q, seqNo));
    }

    /**
     * Adds a stored message under {@code seq} to {@code q}, delayed or visible; returns its index
     * entry, or null when it spilled (stored only, past the budget or behind an existing tail).
     */
    Message insert(QueueState q, long seq, StoredMessage sm, long now, StoreBatch b) {
        b.put(Keyspace.MESSAGES, Keys.message(q.id, seq), sm.encode());
        if (!budget.admits(q) && !store.isEphemeral()) {
            q.spill(seq);
            tails.register(q);
            return null;
        }
        Message m = new Message(seq, sm.groupId(), sm.sentAt());
        m.state = sm.availableAt() > now ? Message.State.DELAYED : Message.State.VISIBLE;
        m.visibleAt = sm.availableAt(); // delayed: until when; visible: since when
        q.add(m);
        q.cacheBody(m, sm);
        return m;
    }

    /** The stored part of {@code m}: from the body cache when it is still there, else from the store. */
    StoredMessage load(QueueState q, Message m) {
        StoredMessage cached = m.cached;
        if (cached != null) {
            return cached;
        }
        long seq = m.seq;
        byte[] v = store.get(Keyspace.MESSAGES, Keys.message(q.id, seq));
        if (v == null) {
            throw new io.hikyaku.engine.store.StoreException("message " + q.id + "/" + seq + " missing from the store");
        }
        return StoredMessage.decode(v);
    }

    /**
     * The stored part of {@code m} for a delivery: like {@link #load}, but a read from a store that
     * keeps its data on disk reads ahead and caches the messages that follow ({@link ReadAhead}).
     * Commands only: a query (peek) must not change what is cached.
     */
    StoredMessage loadForDelivery(QueueState q, Message m) {
        StoredMessage cached = m.cached;
        if (cached != null || store.isEphemeral()) {
            return cached != null ? cached : load(q, m);
        }
        return readAhead.load(q, m);
    }

    /**
     * Moves a message of {@code from} to the end of {@code to} as a new message (DLQ moves and move
     * tasks). FIFO destinations get a new SentTimestamp and SequenceNumber; standard ones keep the
     * original SentTimestamp. A dead-letter move ({@code sourceArn} set) keeps the receive count and
     * first receive time (SQS counts receives "across all queues"); a move task starts afresh.
     */
    void transfer(QueueState from, Message m, StoredMessage sm, QueueState to, String sourceArn, long now, StoreBatch b) {
        from.deleteMessage(m, b);
        // The destination's due timers go into this command's batch, not one of their own: a batch
        // written now would land before this command's, so an earlier move's message (already in b)
        // expired here would be deleted in the store before b puts it there.
        if (to.advance(now, b)) {
            pendingWakeups.add(to.ref());
        }
        long seq = to.allocateSeq(b);
        StoredMessage moved = new StoredMessage(sm.groupId(), to.fifo ? now : sm.sentAt(), now, sm.messageId(), sm.body(),
                sm.attributes(), sm.awsTraceHeader(), sm.deduplicationId(), sm.senderId(),
                to.fifo ? SendRules.sequenceNumber(seq) : null, sourceArn, sm.bodyDigest());
        Message copy = insert(to, seq, moved, now, b);
        if (sourceArn != null && m.receiveCount > 0) {
            Message state = copy != null ? copy : new Message(seq, null, 0); // spilled: the state is only stored
            state.receiveCount = m.receiveCount;
            state.firstReceiveAt = m.firstReceiveAt;
            state.lastReceiveAt = m.lastReceiveAt;
            state.visibleAt = now; // "visible since now" (insert set it so for an indexed copy): persisted as such
            b.put(Keyspace.MESSAGE_STATE, Keys.message(to.id, seq), state.encodeState());
        }
        queues.reschedule(to);
        pendingWakeups.add(to.ref());
        if (sourceArn != null) {
            events.movedToDeadLetterQueue(from.ref(), to.ref());
        } else {
            events.movedByTask(from.ref(), to.ref());
        }
    }

    /** ReceiveMessage (one attempt; the api does long polling). Empty list when nothing is visible. */
    private Durable<List<ReceivedMessage>> receiveMessages(QueueRef queue, ReceiveMessages c) {
        at(c.now());
        QueueState q = queues.require(queue);
        if (c.maxMessages() < 1 || c.maxMessages() > 10) {
            throw Texts.invalidValue(c.maxMessages(), "MaxNumberOfMessages", "Must be between 1 and 10, if provided.");
        }
        Integer requested = c.visibilityTimeout();
        if (requested != null && (requested < 0 || requested > 43200)) {
            throw Texts.invalidValue(requested, "VisibilityTimeout", "Must be >= 0 and <= 43200, if provided.");
        }
        long now = c.now();
        touch(q, now);
        int vt = requested != null ? requested : q.settings.visibilityTimeout;
        StoreBatch b = new StoreBatch();
        List<ReceivedMessage> out = q.fifo ? receiver.fifo(q, c, vt, b) : receiver.standard(q, c, vt, b);
        if (vt == 0 && !out.isEmpty() && q.advance(now, b)) {
            pendingWakeups.add(q.ref()); // VisibilityTimeout 0: visible again at once
        }
        return finish(q, b, out);
    }

    /** How many messages one peek looks at, at most, before it returns a cursor (bounds one call's work). */
    static final int PEEK_SCAN_LIMIT = 1000;

    /**
     * Hikyaku's read-only peek: up to {@code max} (1..10) messages that a receive at {@code now}
     * would consider visible, in sequence order from {@code fromSeq}. A pure query: it processes no
     * timers, writes nothing and changes no visibility or receive count; a message whose delay or
     * visibility timeout ended by {@code now} counts as visible, one past its retention period does
     * not. FIFO messages are listed even when their group is blocked by an in-flight message.
     */
    public PeekPage peekMessages(QueueRef queue, long fromSeq, int max, long now) {
        QueueState q = queues.require(queue);
        if (max < 1 || max > 10) {
            throw Texts.invalidValue(max, "MaxNumberOfMessages", "Must be between 1 and 10, if provided.");
        }
        long retentionMs = q.settings.retentionMillis();
        List<ReceivedMessage> out = new ArrayList<>();
        int[] looked = {0};
        java.util.function.Predicate<Message> take = m -> {
            looked[0]++;
            boolean expired = m.sentAt + retentionMs <= now;
            boolean visible = m.state == Message.State.VISIBLE || m.visibleAt <= now;
            if (!expired && visible) {
                StoredMessage sm = load(q, m); // a tail message has nothing cached: read from the store
                out.add(new ReceivedMessage(sm.messageId(), null, sm.body(), sm.attributes(), sm.senderId(),
                        sm.sentAt(), m.receiveCount, m.firstReceiveAt, SendRules.wireSequenceNumber(q, sm.sequenceNumber()),
                        q.fifo ? sm.deduplicationId() : null, sm.groupId(), sm.awsTraceHeader(), sm.sourceArn(),
                        sm.bodyDigest()));
            }
            return out.size() < max;
        };
        long next = q.messages.visitFrom(Math.max(1, fromSeq), PEEK_SCAN_LIMIT, take);
        if (next < 0 && q.hasTail() && out.size() < max) {
            // past the index: the spilled tail, read from the store in seq order (the same bound in all)
            next = tails.visitFrom(q, Math.max(1, fromSeq), Math.max(1, PEEK_SCAN_LIMIT - looked[0]), take);
        }
        return new PeekPage(out, next < 0 ? null : next);
    }

    private static ReceiptHandle handleFor(QueueState q, String receiptHandle) {
        ReceiptHandle h = ReceiptHandle.decode(receiptHandle);
        if (h == null || h.queueId() != q.id) {
            throw Texts.invalidReceiptHandle(receiptHandle);
        }
        return h;
    }

    private static boolean isCurrent(Message m, ReceiptHandle h) {
        return m.state == Message.State.INFLIGHT && m.receiveCount == h.receiveCount() && m.nonce == h.nonce();
    }

    private Durable<Void> deleteMessage(QueueRef queue, String receiptHandle, long now) {
        at(now);
        QueueState q = queues.require(queue);
        touch(q, now);
        tails.beginCommand();
        StoreBatch b = new StoreBatch();
        deleteOne(q, receiptHandle, now, b);
        return finish(q, b, null);
    }

    private Durable<List<BatchOutcome<Void>>> deleteMessageBatch(QueueRef queue, List<String> receiptHandles,
                                                                long now) {
        at(now);
        QueueState q = queues.require(queue);
        touch(q, now);
        tails.beginCommand();
        StoreBatch b = new StoreBatch();
        List<BatchOutcome<Void>> out = new ArrayList<>();
        for (String h : receiptHandles) {
            try {
                deleteOne(q, h, now, b);
                out.add(new BatchOutcome<>(null, null));
            } catch (EngineException e) {
                out.add(new BatchOutcome<>(null, e));
            }
        }
        return finish(q, b, out);
    }

    private void deleteOne(QueueState q, String receiptHandle, long now, StoreBatch b) {
        ReceiptHandle h = handleFor(q, receiptHandle);
        Message m = q.messages.get(h.seq());
        if (m == null && tails.holds(q, h.seq())) {
            tails.delete(q, h, receiptHandle, now, b); // received before a restart that left it in the tail
            return;
        }
        if (m == null) {
            return; // already deleted: SQS answers 200 again
        }
        if (q.fifo && !isCurrent(m, h)) {
            throw Texts.invalidValue(receiptHandle, "ReceiptHandle", Texts.HANDLE_EXPIRED);
        }
        q.deleteMessage(m, b);
    }

    /** ChangeMessageVisibility, {@code visibilityTimeout} seconds 0..43200. */
    private Durable<Void> changeMessageVisibility(QueueRef queue, String receiptHandle, int visibilityTimeout,
                                                 long now) {
        at(now);
        QueueState q = queues.require(queue);
        touch(q, now);
        tails.beginCommand();
        StoreBatch b = new StoreBatch();
        changeOne(q, receiptHandle, visibilityTimeout, now, b);
        return finish(q, b, null);
    }

    /** Entries are (receiptHandle, visibilityTimeout) pairs in request order. */
    private Durable<List<BatchOutcome<Void>>> changeMessageVisibilityBatch(QueueRef queue,
                                                                          List<VisibilityChange> changes, long now) {
        at(now);
        QueueState q = queues.require(queue);
        touch(q, now);
        tails.beginCommand();
        StoreBatch b = new StoreBatch();
        List<BatchOutcome<Void>> out = new ArrayList<>();
        for (VisibilityChange c : changes) {
            try {
                changeOne(q, c.receiptHandle(), c.visibilityTimeout(), now, b);
                out.add(new BatchOutcome<>(null, null));
            } catch (EngineException e) {
                out.add(new BatchOutcome<>(null, e));
            }
        }
        return finish(q, b, out);
    }

    private void changeOne(QueueState q, String receiptHandle, int vt, long now, StoreBatch b) {
        ReceiptHandle h = handleFor(q, receiptHandle);
        if (vt < 0 || vt > 43200) {
            throw Texts.invalidValue(vt, "VisibilityTimeout", "Must be >= 0 and <= 43200, if provided.");
        }
        Message m = q.messages.get(h.seq());
        if (m == null && tails.holds(q, h.seq())) {
            tails.changeVisibility(q, h, receiptHandle, vt, now, b);
            return;
        }
        if (m == null) {
            throw Texts.invalidValue(receiptHandle, "ReceiptHandle", Texts.NOT_AVAILABLE_FOR_CHANGE);
        }
        if (m.state != Message.State.INFLIGHT) {
            // sqs-behaviours 81: on a standard queue the latest receive's handle still works after its
            // visibility expired (until the message is received again): the message goes back in
            // flight for the new timeout, counted from now, as if it had never come back.
            boolean latest = m.state == Message.State.VISIBLE && m.receiveCount == h.receiveCount() && m.nonce == h.nonce();
            if (q.fifo || !latest) {
                throw new EngineException(ErrorTypes.MESSAGE_NOT_INFLIGHT, "The specified message isn't in flight.");
            }
            if (vt > 0 && q.inflight >= receiver.inflightLimit()) {
                throw new EngineException(ErrorTypes.OVER_LIMIT, Texts.OVER_LIMIT_INFLIGHT);
            }
        }
        if (q.fifo && !isCurrent(m, h)) {
            throw Texts.invalidValue(receiptHandle, "ReceiptHandle", Texts.HANDLE_EXPIRED);
        }
        long visibleAt = now + vt * 1000L;
        if (visibleAt - m.lastReceiveAt > MAX_VISIBILITY_MS) {
            throw Texts.invalidValue(vt, "VisibilityTimeout", Texts.VISIBILITY_LIMIT);
        }
        m.touched = true;
        q.transition(m, Message.State.INFLIGHT, visibleAt);
        b.put(Keyspace.MESSAGE_STATE, Keys.message(q.id, m.seq), m.encodeState());
        if (visibleAt <= now && q.advance(now, b)) {
            pendingWakeups.add(q.ref());
        }
    }

    // ---- re-encryption (MessageSealing) ---------------------------------------------------

    private Durable<SealOutcome> sealMessage(Command.SealMessage c) {
        at(c.now());
        StoreBatch b = new StoreBatch();
        SealOutcome outcome = MessageSealing.seal(queues.find(c.queue()), store, c, b);
        return b.isEmpty() ? new Durable<>(outcome, DONE) : commit(b, outcome);
    }

    /**
     * Up to {@code max} (1..1000) stored messages of {@code queue} from {@code fromSeq} in sequence order, as
     * stored (sealed or plaintext; in flight and delayed ones too), fewer once they hold 8 MiB: what
     * {@code hikyaku reencrypt} walks. A pure read of the store; QueueDoesNotExist when there is no such queue.
     */
    public StoredBodyPage storedBodies(QueueRef queue, long fromSeq, int max) {
        return MessageSealing.page(queues.require(queue), store, fromSeq, max);
    }

    /** Every queue this engine holds, in id order (a pure read). */
    public List<QueueInfo> queues() {
        List<QueueInfo> out = new ArrayList<>(queues.byId.size());
        new TreeMap<>(queues.byId).values().forEach(q -> out.add(q.info()));
        return out;
    }

    // ---- message move tasks ---------------------------------------------------------------

    /** StartMessageMoveTask; returns the task handle. */
    private Durable<String> startMessageMoveTask(StartMoveTask command) {
        at(command.now());
        StoreBatch b = new StoreBatch();
        String handle = tasks.start(command, b);
        return commit(b, handle);
    }

    /** Newest first, at most {@code maxResults} (null = 1; 1..10). */
    public List<MoveTaskInfo> listMessageMoveTasks(String sourceArn, Integer maxResults) {
        return tasks.list(sourceArn, maxResults);
    }

    /** CancelMessageMoveTask; returns ApproximateNumberOfMessagesMoved. */
    private Durable<Long> cancelMessageMoveTask(String taskHandle, long now) {
        at(now);
        StoreBatch b = new StoreBatch();
        long moved = tasks.cancel(taskHandle, now, b);
        return commit(b, moved);
    }

    // ---- read-only views for metrics ------------------------------------------------------

    /** Every queue as it stands, without processing due timers: a pure read that writes nothing. */
    public List<QueueSnapshot> snapshot() {
        List<QueueSnapshot> out = new ArrayList<>(queues.byId.size());
        for (QueueState q : queues.byId.values()) {
            long oldest = q.retention.isEmpty() ? -1 : q.retention.first().sentAt;
            long groups = q.fifo ? q.fifoDelivery().groupsWithInflight() : 0;
            out.add(new QueueSnapshot(q.accountId, q.name, q.fifo, q.visibleCount(), q.inflight, q.delayed, oldest, groups));
        }
        return out;
    }

    /** Every known message move task (running and finished), as ListMessageMoveTasks shows them. */
    public List<MoveTaskInfo> moveTasks() {
        return tasks.byId.values().stream().map(MoveTask::info).toList();
    }

    // ---- timers ---------------------------------------------------------------------------

    /**
     * Epoch millis of the earliest pending timer over all queues, or Long.MAX_VALUE. May be in the
     * past (0) when queues gained messages outside tick: call tick at once then.
     */
    public long nextDeadline() {
        if (!pendingWakeups.isEmpty() || cleanups.pending() || orphans.pending() || tails.tickNeeded()) {
            return 0; // page-ins and store cleanup continue at once, a chunk per tick
        }
        long d = Math.min(queues.nextDeadline(), tasks.nextDeadline());
        return Math.min(d, deletedNames.nextExpiry());
    }

    /** Processes every timer due at or before {@code now}. */
    public Ticked tick(long now) {
        at(now);
        StoreBatch b = new StoreBatch();
        Set<QueueRef> woken = new LinkedHashSet<>(pendingWakeups);
        pendingWakeups.clear();
        // Each due queue advances once per tick (a chunk of its expiries); one that still has
        // work due is polled again by the next tick, so a tick's work stays bounded.
        List<QueueState> due = new ArrayList<>();
        QueueState q;
        while ((q = queues.pollDue(now)) != null) {
            due.add(q);
            if (q.advance(now, b)) {
                woken.add(q.ref());
            }
        }
        due.forEach(queues::reschedule);
        tails.tick(now, queues, woken);
        cleanups.tick(b);
        deletedNames.expire(now, b);
        tasks.tick(now, b);
        woken.addAll(pendingWakeups);
        pendingWakeups.clear();
        storeAppliedAt(now, b);
        orphans.tick(b); // after applied-at: whether that is written must not depend on other shards' leftovers
        CompletableFuture<Void> written = b.isEmpty() ? DONE : store.write(b);
        return new Ticked(woken, written);
    }

    /**
     * Records {@code now} as the last applied time (META "applied-at", where the next load starts at
     * the earliest) in a batch the tick writes anyway, or at most once a second of command time when
     * it writes nothing else: a tick-only key costs nothing per message, and a value up to a tick
     * interval old is enough (ENGINE.md "Journal": it only has to be no later than the commands
     * that follow).
     */
    private void storeAppliedAt(long now, StoreBatch b) {
        boolean due = storedAppliedAt == Long.MIN_VALUE || now - storedAppliedAt >= APPLIED_AT_EVERY_MS;
        if (now == storedAppliedAt || (b.isEmpty() && !due)) {
            return;
        }
        b.put(Keyspace.META, shard.appliedAtKey(), Enc.version(1).i64(now).done());
        storedAppliedAt = now;
    }

    // ---- commands as data -----------------------------------------------------------------

    /**
     * Applies one command: the single entry point for state changes (ENGINE.md "Commands as
     * data"). A refusal is a result ({@link Applied.Refused}), never an exception; the value is typed
     * by the command ({@link Command.Tick} gives {@link Ticked}, {@link Command.Advance} null).
     */
    public <R> Applied<R> apply(Command<R> command) {
        try {
            Durable<R> done = dispatch(command);
            return new Applied.Done<>(done.value(), done.written());
        } catch (EngineException e) {
            return Applied.refused(e);
        }
    }

    /** Each command record fixes {@code R} to the type its handler below returns. */
    @SuppressWarnings("unchecked")
    private <R> Durable<R> dispatch(Command<R> command) {
        return (Durable<R>) run(command);
    }

    private Durable<?> run(Command<?> command) {
        if (command instanceof Command.SendMessage c) {
            return sendMessage(c.queue(), c.message(), c.now());
        } else if (command instanceof Command.SendOnce c) {
            return sendOnce(c);
        } else if (command instanceof Command.ReceiveMessage c) {
            return receiveMessages(c.queue(), c.receive());
        } else if (command instanceof Command.DeleteMessage c) {
            return deleteMessage(c.queue(), c.receiptHandle(), c.now());
        } else if (command instanceof Command.Tick c) {
            Ticked t = tick(c.now());
            return new Durable<>(t, t.written());
        } else if (command instanceof Command.Advance c) {
            at(c.now());
            touch(queues.require(c.queue()), c.now());
            return new Durable<>(null, DONE);
        } else if (command instanceof Command.SendMessageBatch c) {
            return sendMessageBatch(c.queue(), c.messages(), c.now());
        } else if (command instanceof Command.DeleteMessageBatch c) {
            return deleteMessageBatch(c.queue(), c.receiptHandles(), c.now());
        } else if (command instanceof Command.ChangeVisibility c) {
            return changeMessageVisibility(c.queue(), c.receiptHandle(), c.visibilityTimeout(), c.now());
        } else if (command instanceof Command.ChangeVisibilityBatch c) {
            return changeMessageVisibilityBatch(c.queue(), c.changes(), c.now());
        } else if (command instanceof Command.CreateQueue c) {
            return createQueue(c.create());
        } else if (command instanceof Command.DeleteQueue c) {
            return deleteQueue(c.queue(), c.now());
        } else if (command instanceof Command.PurgeQueue c) {
            return purgeQueue(c.queue(), c.now());
        } else if (command instanceof Command.SetQueueAttributes c) {
            return setQueueAttributes(c.queue(), c.attributes(), c.now());
        } else if (command instanceof Command.TagQueue c) {
            return tagQueue(c.queue(), c.tags(), c.now());
        } else if (command instanceof Command.UntagQueue c) {
            return untagQueue(c.queue(), c.tagKeys(), c.now());
        } else if (command instanceof Command.AddPermission c) {
            return addPermission(c.queue(), c.label(), c.accountIds(), c.actions(), c.now());
        } else if (command instanceof Command.RemovePermission c) {
            return removePermission(c.queue(), c.label(), c.now());
        } else if (command instanceof Command.StartMoveTask c) {
            return startMessageMoveTask(c.start());
        } else if (command instanceof Command.CancelMoveTask c) {
            return cancelMessageMoveTask(c.taskHandle(), c.now());
        } else if (command instanceof Command.SealMessage c) {
            return sealMessage(c);
        }
        throw new IllegalArgumentException("unknown command " + command.getClass().getName());
    }

    /**
     * GetQueueAttributes as a pure read of the state as it stands (apply {@link Command.Advance}
     * first for what is due): the names, errors and answer of GetQueueAttributes.
     */
    public Map<String, String> readQueueAttributes(QueueRef queue, Collection<String> names) {
        QueueState q = queues.require(queue);
        checkReadable(names);
        return attributesOf(q, names);
    }

    /** Exact counts (visible, in flight, delayed) as the state stands: a pure read (after {@link Command.Advance}). */
    public QueueCounts counts(QueueRef queue) {
        QueueState q = queues.require(queue);
        return new QueueCounts(q.visibleCount(), q.inflight, q.delayed);
    }

    /** Whether a receive could return a message now, as a pure read (after {@link Command.Advance}). */
    public boolean hasDeliverable(QueueRef queue) {
        return queues.require(queue).delivery.hasDeliverable();
    }

    /**
     * A stable SHA-256 (hex) of the state: every queue (in id order) with its settings, tags,
     * counts and sequence bounds, the last applied time, and every entry of every store keyspace in
     * key order (messages, their states, dedup entries, move tasks, ...). Two engines that applied
     * the same commands to empty stores of the same kind have equal digests.
     */
    public String digest() {
        return StateDigest.of(this, store);
    }

    long queueIdCounter() {
        return queueIdCounter;
    }

    /**
     * The queue id counter this engine loaded with (the highest id the store had seen, raised to a
     * given floor): the journal records it, so a replay allocates the same ids.
     */
    public long idFloor() {
        return idFloor;
    }

    // ---- helpers --------------------------------------------------------------------------

    /** Lazily processes what is due for {@code q} (written at once, in its own batch). */
    void touch(QueueState q, long now) {
        StoreBatch b = new StoreBatch();
        if (tails.onTouch(q, now)) {
            pendingWakeups.add(q.ref());
        }
        if (q.advance(now, b)) {
            pendingWakeups.add(q.ref());
        }
        if (!b.isEmpty()) {
            store.write(b);
        }
        queues.reschedule(q);
    }

    private <T> Durable<T> finish(QueueState q, StoreBatch b, T value) {
        queues.reschedule(q);
        return commit(b, value);
    }

    private <T> Durable<T> commit(StoreBatch b, T value) {
        return new Durable<>(value, store.write(b));
    }
}
