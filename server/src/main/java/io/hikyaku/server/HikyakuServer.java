package io.hikyaku.server;

import io.hikyaku.api.ServiceView;
import io.hikyaku.api.SqsService;
import io.hikyaku.engine.QueueSnapshot;
import io.hikyaku.cloudwatch.CloudWatch;
import io.hikyaku.identity.AuthMode;
import io.hikyaku.metrics.HikyakuMetrics;
import io.hikyaku.metrics.RequestObserver;
import io.hikyaku.server.cli.Version;
import io.hikyaku.server.logging.AccessLog;
import io.hikyaku.server.storage.StoreMetrics;
import io.hikyaku.store.rocksdb.RocksDbStore;
import io.micrometer.core.instrument.Gauge;
import java.util.ArrayList;
import java.util.List;
import io.hikyaku.api.SqsServices;
import io.hikyaku.protocol.ProtocolCodec;
import io.hikyaku.push.FileMappingStore;
import io.hikyaku.push.MappingStore;
import io.hikyaku.push.PushService;
import io.hikyaku.sns.SnsService;
import io.hikyaku.push.QueueAccess;
import io.hikyaku.server.push.PushMeters;
import io.hikyaku.server.admin.AdminEndpoint;
import io.hikyaku.server.admin.AdminFile;
import io.hikyaku.server.auth.RequestAuthentication;
import io.hikyaku.server.auth.RequestAuthorization;
import io.hikyaku.server.http.CallContextFactory;
import io.hikyaku.server.http.CrossOriginGuard;
import io.hikyaku.server.http.Codecs;
import io.hikyaku.server.http.HttpChannelInitializer;
import io.hikyaku.server.http.RequestDispatcher;
import io.hikyaku.server.http.IdleConnections;
import io.hikyaku.server.http.MetricsEndpoint;
import io.hikyaku.server.http.ConnectionGuards;
import io.hikyaku.server.http.ConnectionLimits;
import io.hikyaku.server.http.ConnectionProblems;
import io.hikyaku.server.http.ServerState;
import io.hikyaku.server.http.Tls;
import io.netty.handler.ssl.SslContext;
import io.hikyaku.server.storage.Backups;
import io.hikyaku.server.storage.OpenedStore;
import io.hikyaku.server.storage.StoreHealth;
import io.hikyaku.server.storage.StoreOpener;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import io.hikyaku.identity.Identities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running SQS-compatible server: a Netty HTTP/1.1 listener in front of an {@link SqsService}.
 * Closing it stops accepting, lets in-flight requests finish (up to a grace period), then closes the
 * service (which closes the store) and the connections.
 */
public final class HikyakuServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HikyakuServer.class);
    /**
     * How long close() waits for in-flight requests after parked long polls were answered: writes
     * waiting for their fsync, and calls already running.
     */
    private static final long SHUTDOWN_GRACE_MILLIS = 5_000;

    private final ServerConfig config;
    /** null when the server was started around a custom service without authentication */
    private final SecurityConfig security;
    private final SqsService service;
    private final StoreHealth storeHealth;
    /** The RocksDB store (its background verification's findings); null with memory storage. */
    private final RocksDbStore rocks;
    private final Backups backups;
    private final ServerState state = new ServerState();
    private final IdleConnections idleConnections;
    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private Channel listener;
    /** The second (HTTPS) listener when TLS is served on its own port, else null. */
    private Channel tlsListener;
    private volatile int port;
    private volatile int tlsPort = -1;
    private ExecutorService adminWorker;
    private AdminFile adminFile;
    private final HikyakuMetrics metrics;
    private MetricsEndpoint metricsEndpoint;
    /** Policy evaluation off the event loops (auth sigv4 only). */
    private final io.hikyaku.server.auth.AuthorizationPool authorizations = io.hikyaku.server.auth.AuthorizationPool.forThisMachine();
    /** The CloudWatch API and its metric history; null when the service offers no view of its queues. */
    private final CloudWatch cloudWatch;
    private final long startedNanos = System.nanoTime();
    private volatile PushService push;
    private volatile SnsService sns;
    private volatile io.hikyaku.kms.KmsService kms;
    private volatile io.hikyaku.scheduler.SchedulerService scheduler;
    /** The authenticate/authorize step of every request; null when started around a custom service. */
    private volatile RequestAuthentication authentication;
    /** {@link System#nanoTime()} when {@code start} was called: the start summary's own duration. */
    private long beganNanos;
    /** Connection limits and what is counted against them, shared by the listeners. */
    private ConnectionGuards connectionGuards;
    /** This node's part of a replicated cluster; null for a single node. */
    private io.hikyaku.server.cluster.ClusterMode clusterMode;
    /** Cluster mode: runs KMS, SNS, the Scheduler and alarms while this node is the ready leader; null otherwise. */
    private io.hikyaku.server.cluster.LeaderServices leaderServices;

    private HikyakuServer(ServerConfig config, SecurityConfig security, SqsService service, StoreHealth storeHealth, Backups backups,
                          RocksDbStore rocks) {
        this.config = config;
        this.security = security;
        this.service = service;
        this.storeHealth = storeHealth;
        this.rocks = rocks;
        this.backups = backups;
        this.idleConnections = new IdleConnections(state, config.clock());
        this.acceptor = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("hikyaku-accept", true),
                NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(ioThreads(), new DefaultThreadFactory("hikyaku-io", true),
                NioIoHandler.newFactory());
        this.metrics = config.metrics() ? bindMetrics(rocks) : null;
        if (!(service instanceof ServiceView view)) {
            this.cloudWatch = null;
        } else if (metrics == null) {
            this.cloudWatch = CloudWatch.withoutData(config.clock(), config.accountId());
        } else {
            this.cloudWatch = new CloudWatch(view, metrics, config.clock(), config.accountId(),
                    config.storage() == StorageMode.MEMORY ? null : config.dataDir(), CloudWatch.DEFAULT_MAX_QUEUES);
        }
    }

    /**
     * With metrics on: the registry and every meter source. With metrics off none of this exists, so
     * nothing is recorded anywhere (the engine keeps its no-op events, requests have no observer).
     */
    private HikyakuMetrics bindMetrics(RocksDbStore rocks) {
        HikyakuMetrics m = new HikyakuMetrics(config.clock());
        if (service instanceof ServiceView view) {
            m.watch(view);
        }
        Gauge.builder("hikyaku.connections.open", state, s -> s.channels().size())
                .description("Open client connections").register(m.registry());
        Gauge.builder("hikyaku.requests.in.flight", state, ServerState::inFlight)
                .description("Requests being served (parked long polls included)").register(m.registry());
        if (storeHealth != null) {
            StoreMetrics.bind(m, storeHealth, service::storageProblem, rocks);
        }
        m.beforeScrape(new PushMeters(m.registry(), () -> push)::refresh); // per event source mapping
        io.hikyaku.server.sns.SnsMeters.bind(m.registry(), () -> sns);
        io.hikyaku.server.scheduler.SchedulerMeters.bind(m.registry(), () -> scheduler);
        return m;
    }

    /** The CloudWatch API's side (tests sample the metric history on their clock through it), or null. */
    public CloudWatch cloudWatch() {
        return cloudWatch;
    }

    /** The server's metrics (what {@code GET /metrics} shows), or null when metrics are off. */
    public HikyakuMetrics metrics() {
        return metrics;
    }

    /**
     * Opens the configured store, builds the service and starts serving. With RocksDB the server also
     * publishes its admin endpoint (online backups) in {@code <data dir>/ADMIN}.
     */
    public static HikyakuServer start(ServerConfig config) {
        return start(config, SecurityConfig.defaults());
    }

    /**
     * As {@link #start(ServerConfig)}, authenticating requests as {@code security} says.
     *
     * @throws IllegalStateException when auth none would be exposed beyond this machine without
     *                               {@code allowUnauthenticated}
     */
    public static HikyakuServer start(ServerConfig config, SecurityConfig security) {
        return start(config, security, ConnectionLimits.DEFAULTS);
    }

    /** As {@link #start(ServerConfig, SecurityConfig)}, holding connections to {@code limits}. */
    public static HikyakuServer start(ServerConfig config, SecurityConfig security, ConnectionLimits limits) {
        return start(config, security, limits, io.hikyaku.server.cluster.ClusterSettings.NONE);
    }

    /**
     * As {@link #start(ServerConfig, SecurityConfig, ConnectionLimits)}; with {@code cluster} enabled,
     * as a node of a replicated cluster ({@link io.hikyaku.server.cluster.ClusterMode}).
     */
    public static HikyakuServer start(ServerConfig config, SecurityConfig security, ConnectionLimits limits,
                                      io.hikyaku.server.cluster.ClusterSettings cluster) {
        long began = System.nanoTime();
        java.net.InetSocketAddress address = ListenAddress.resolve(config.host(), config.port()); // a typo'd host first
        security.checkExposure(config.host());
        if (cluster.enabled() || cluster.nodeId() != null) {
            io.hikyaku.server.cluster.ClusterMode.check(config, cluster); // before anything is opened
            if (cluster.enabled()) {
                try { // any node may become the leader and open the KMS keys: all must hold the same master key
                    io.hikyaku.kms.KmsService.checkSharedMasterKey(io.hikyaku.kms.KmsService.masterKeyFileFromEnvironment());
                } catch (IllegalStateException e) {
                    throw new io.hikyaku.server.config.ConfigException(e.getMessage());
                }
            }
        }
        ListenAddress.checkFree(config.host(), address);
        io.hikyaku.server.cluster.ClusterMode clusterMode = cluster.enabled()
                ? io.hikyaku.server.cluster.ClusterMode.start(config, cluster) : null;
        OpenedStore store = clusterMode != null ? clusterMode.openedStore() : StoreOpener.open(config);
        SqsService service;
        java.util.List<io.hikyaku.journal.JournalWriter> journals = new java.util.ArrayList<>();
        try {
            if (config.journal() != null) {
                for (int i = 0; i < config.engineShards(); i++) {
                    journals.add(openJournal(config, new io.hikyaku.engine.EngineShard(i, config.engineShards())));
                }
                service = SqsServices.create(store.health(), config.clock(), config.cooldowns() == Cooldowns.AWS,
                        MemoryBudget.resolve(config.maxIndexedMessages()), config.indexWindow(), LOG::warn,
                        java.util.List.copyOf(journals), config.engineShards());
            } else {
                service = SqsServices.create(store.health(), config.clock(), config.cooldowns() == Cooldowns.AWS,
                        MemoryBudget.resolve(config.maxIndexedMessages()), config.indexWindow(), LOG::warn,
                        io.hikyaku.engine.command.CommandSink.NONE, config.engineShards());
            }
        } catch (RuntimeException e) {
            journals.forEach(io.hikyaku.journal.JournalWriter::close);
            store.health().close();
            if (clusterMode != null) {
                clusterMode.close();
            }
            throw e;
        }
        if (clusterMode != null) {
            clusterMode.govern(service); // fenced until this node is the ready leader
        }
        Backups backups = store.backups() == null ? null : target -> {
            store.backups().checkpoint(target);
            FileMappingStore.copyInto(config.dataDir(), target); // push delivery's mappings live beside the store
            io.hikyaku.kms.KmsCommandLog.copyInto(config.dataDir(), target); // the keys encrypted messages need
        };
        return start(began, config, security, Codecs.standard(), service, store.health(), backups, store.rocks(), limits,
                clusterMode);
    }

    /**
     * One shard's journal ({@code --journal}; with several shards, a file per shard:
     * {@link io.hikyaku.journal.JournalFiles}): every command that shard's engine applies is appended;
     * the service records the shard's final state digest in it and closes it when it stops.
     */
    private static io.hikyaku.journal.JournalWriter openJournal(ServerConfig config, io.hikyaku.engine.EngineShard shard) {
        java.nio.file.Path file = io.hikyaku.journal.JournalFiles.of(config.journal(), shard);
        try {
            return new io.hikyaku.journal.JournalWriter(file, SqsServices.ENGINE_REGION,
                    config.cooldowns() == Cooldowns.AWS, config.storage().name().toLowerCase(java.util.Locale.ROOT));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot open the journal " + file + ": " + e.getMessage(), e);
        }
    }

    /** Starts serving {@code service} (which the server then owns and closes) through {@code codec}. */
    public static HikyakuServer start(ServerConfig config, ProtocolCodec codec, SqsService service) {
        return start(System.nanoTime(), config, null, codec, service, null, null, null, ConnectionLimits.DEFAULTS, null);
    }

    private static HikyakuServer start(long began, ServerConfig config, SecurityConfig security, ProtocolCodec codec,
                                       SqsService service, StoreHealth storeHealth, Backups backups, RocksDbStore rocks,
                                       ConnectionLimits limits, io.hikyaku.server.cluster.ClusterMode clusterMode) {
        HikyakuServer server = new HikyakuServer(config, security, service, storeHealth, backups, rocks);
        server.clusterMode = clusterMode;
        if (clusterMode != null && server.metrics != null) {
            clusterMode.bindMetrics(server.metrics.registry());
        }
        server.connectionGuards = ConnectionGuards.of(limits, security != null && security.auth() == AuthMode.SIGV4,
                config.maxBodyBytes(), config.clock());
        server.beganNanos = began;
        try {
            // Ready means ready: the configured queues exist (or start fails naming the bad one)
            // before the port answers at all, so no client ever sees QueueDoesNotExist for them.
            new QueueBootstrap(service, config.accountId(), config.region(), bootstrapBaseUrl(config))
                    .createAll(config.queues());
            if (clusterMode == null) {
                boolean keysInMemory = config.storage() == StorageMode.MEMORY; // memory: an ephemeral master key, no env read
                server.kms = io.hikyaku.kms.KmsService.start(keysInMemory ? null : config.dataDir(),
                        keysInMemory ? null : io.hikyaku.kms.KmsService.masterKeyFileFromEnvironment(), config.region(), config.clock());
                // before anything sends or receives: message data of SSE queues is sealed with the key service's data keys
                server.service.messageEncryption(io.hikyaku.server.sse.MessageEncryptionWiring.of(server.kms, config.clock(), server.metrics));
                server.startPush();
                server.startTopicsAndSchedules(config.storage() == StorageMode.MEMORY ? io.hikyaku.sns.SnsJournal.memory()
                        : io.hikyaku.sns.SnsCommandLog.inDataDir(config.dataDir()),
                        new io.hikyaku.scheduler.SchedulerJournal(config.storage() == StorageMode.MEMORY ? null : config.dataDir()));
            }
            if (server.cloudWatch != null) { // alarm actions publish to this server's SNS topics
                server.cloudWatch.alarmsIn(config.region(), new SnsAlarmNotifier(() -> server.sns == null ? null : server.sns.api()));
                server.cloudWatch.serviceMetrics(new io.hikyaku.server.sns.SnsCloudWatchMetrics(() -> server.sns));
            }
            if (clusterMode != null) { // their state is the replicated service log: they run on the ready leader
                if (server.cloudWatch != null) {
                    server.cloudWatch.alarmsLeading(false, null); // this node's own alarms file is not the cluster's
                }
                server.leaderServices = io.hikyaku.server.cluster.LeaderServices.start(clusterMode, service, server.new ReplicatedServices());
            }
            server.bind(codec);
            service.startTimers(); // a stored backlog's page-ins and counting wait until the port is open
            if (server.cloudWatch != null) {
                server.cloudWatch.start();
            }
            server.publishAdminFile();
            server.logStarted();
            return server;
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
    }

    /** SNS and the Scheduler (whose topic targets and execution roles use SNS) over their logs. */
    private void startTopicsAndSchedules(io.hikyaku.sns.SnsJournal topics, io.hikyaku.scheduler.SchedulerJournal schedules) {
        sns = SnsService.start(service, config.storage() == StorageMode.MEMORY ? null : config.dataDir(), topics,
                config.region(), security == null ? io.hikyaku.sns.OutboundAllowList.loopbackOnly() : security.outboundAllowList(),
                security == null ? null : security.outboundCa(), config.advertisedUrl(), security != null && security.auth() == io.hikyaku.identity.AuthMode.SIGV4,
                new io.hikyaku.server.sns.SnsLambdaFunctions(this::push)); // lambda subscriptions (none run in a cluster)
        // sigv4: each fire is authorized as its execution role (refused until the authentication exists)
        SnsService topicsNow = sns;
        io.hikyaku.scheduler.ExecutionRoles roles = security != null && security.auth() == io.hikyaku.identity.AuthMode.SIGV4
                ? new io.hikyaku.server.scheduler.SchedulerExecutionRoles(() -> authentication, topicsNow::api, config.clock())
                : io.hikyaku.scheduler.ExecutionRoles.UNCHECKED;
        scheduler = io.hikyaku.scheduler.SchedulerService.start(service, schedules, config.region(), config.clock(), roles,
                new io.hikyaku.server.scheduler.SchedulerTopicTargets(topicsNow::api)); // SNS topics as targets
        if (cloudWatch != null) { // invocation outcomes as AWS/Scheduler metrics
            scheduler.metrics(new io.hikyaku.server.scheduler.SchedulerCloudWatch(cloudWatch));
        }
    }

    /**
     * Cluster mode: KMS, SNS, the Scheduler and CloudWatch alarms over their service logs in the replicated store,
     * started when this node becomes the ready leader (each replays its log) and stopped when it is not.
     * Message encryption (SSE) and push delivery do not run in a cluster.
     */
    private final class ReplicatedServices implements io.hikyaku.server.cluster.LeaderServices.Lifecycle {

        @Override
        public void prepare() {
            long began = System.nanoTime();
            SnsService.prepare(config.dataDir()); // its signing key (RSA): made now, not when this node first leads
            LOG.info("Cluster services prepared in {} ms", (System.nanoTime() - began) / 1_000_000);
        }

        @Override
        public void start(io.hikyaku.engine.store.Store replicated) {
            long timeout = io.hikyaku.server.cluster.LeaderServices.APPEND_TIMEOUT_MILLIS;
            long began = System.nanoTime();
            java.nio.file.Path masterKey = io.hikyaku.kms.KmsService.masterKeyFileFromEnvironment();
            kms = io.hikyaku.kms.KmsService.start(config.dataDir(), masterKey, io.hikyaku.kms.KmsService.previousMasterKeyFileFromEnvironment(),
                    new io.hikyaku.kms.KmsCommandLog(new io.hikyaku.servicelog.StoreServiceLog(replicated,
                            io.hikyaku.kms.KmsCommandLog.SERVICE, timeout)), config.region(), config.clock());
            long kmsAt = System.nanoTime();
            startTopicsAndSchedules(new io.hikyaku.sns.SnsCommandLog(new io.hikyaku.servicelog.StoreServiceLog(replicated,
                            io.hikyaku.sns.SnsCommandLog.SERVICE, timeout)),
                    new io.hikyaku.scheduler.SchedulerJournal(new io.hikyaku.servicelog.StoreServiceLog(replicated,
                            io.hikyaku.scheduler.SchedulerJournal.SERVICE, timeout)));
            long topicsAt = System.nanoTime();
            if (cloudWatch != null) {
                cloudWatch.alarmsLeading(true, new io.hikyaku.servicelog.StoreServiceLog(replicated,
                        CloudWatch.alarmsService(), timeout));
            }
            LOG.info("Cluster services started: KMS in {} ms, SNS and the Scheduler in {} ms, alarms in {} ms",
                    (kmsAt - began) / 1_000_000, (topicsAt - kmsAt) / 1_000_000, (System.nanoTime() - topicsAt) / 1_000_000);
        }

        @Override
        public void stop() {
            if (cloudWatch != null) {
                cloudWatch.alarmsLeading(false, null);
            }
            io.hikyaku.scheduler.SchedulerService s = scheduler;
            SnsService t = sns;
            io.hikyaku.kms.KmsService k = kms;
            scheduler = null; // requests that reach this node meanwhile are answered "not running" (retried)
            sns = null;
            kms = null;
            for (AutoCloseable c : new AutoCloseable[] {s, t, k}) {
                if (c != null) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        LOG.warn("Stopping a cluster service failed", e);
                    }
                }
            }
        }
    }

    /**
     * The base of the queue URLs the start-up calls pass among themselves: only their paths matter,
     * and with port 0 the real port is not known until the bind, which comes after them.
     */
    private static String bootstrapBaseUrl(ServerConfig config) {
        return config.advertisedUrl() != null ? config.advertisedUrl() : "http://localhost:" + config.port();
    }

    private void bind(ProtocolCodec codec) {
        CallContextFactory contexts = new CallContextFactory(config.accountId(), config.region(),
                config.advertisedUrl(), config.host(), this::port);
        AdminEndpoint admin = null;
        if (backups != null) {
            adminWorker = Executors.newSingleThreadExecutor(new DefaultThreadFactory("hikyaku-admin", true));
            adminFile = new AdminFile(null, AdminEndpoint.newToken(), ProcessHandle.current().pid());
            admin = new AdminEndpoint(adminFile.token(), backups, adminWorker);
        }
        StoreHealth health = storeHealth;
        io.hikyaku.server.cluster.ClusterMode node = clusterMode; // a node that does not lead: its refused writes are no store problem
        List<RequestObserver> observers = new ArrayList<>();
        if (metrics != null) { // off: no observer, so requests build no Exchange at all
            observers.add(metrics.requests());
            if (cloudWatch != null) {
                observers.add(cloudWatch.observer());
            }
        }
        if (config.accessLog()) {
            observers.add(new AccessLog());
        }
        RequestAuthentication authentication = security == null ? null
                : new RequestAuthentication(security, config.accountId(), config.region(), config.clock(),
                        queueLookup());
        this.authentication = authentication;
        this.metricsEndpoint = new MetricsEndpoint(metrics, security == null ? AuthMode.NONE : security.auth(),
                security == null ? null : MetricsEndpoint.readToken(security.metricsTokenFile()));
        RequestDispatcher dispatcher = new RequestDispatcher(codec, service, contexts, state::serving,
                () -> health == null || (node != null && !node.isReadyLeader()) ? null : service.storageProblem() != null
                        ? service.storageProblem() : rocks == null ? null : rocks.corruption(), admin, authentication).observe(metrics, observers, Version.current())
                .cloudWatch(cloudWatch).metricsEndpoint(metricsEndpoint).authorizeOn(authorizations)
                .crossOrigin(security != null && security.auth() == io.hikyaku.identity.AuthMode.NONE
                        ? CrossOriginGuard.forAuthNone(security.allowedHosts(), config.host(), config.advertisedUrl()) : CrossOriginGuard.ORIGIN_ONLY)
                .lambda(() -> push == null ? null : push.api())
                .sns(() -> sns == null ? null : sns.api())
                .kms(() -> kms == null ? null : kms.api())
                .scheduler(() -> scheduler == null ? null : scheduler.api())
                .localStackHealth(config.localStackParity());
        if (clusterMode != null) {
            dispatcher.cluster(clusterMode.routing(cloudWatch == null ? null : cloudWatch::accepts, config.maxBodyBytes()));
        }
        SslContext tls = security != null && security.tls() ? Tls.serverContext(security.tlsCert(), security.tlsKey()) : null;
        boolean tlsOnMainPort = tls != null && security.tlsPort() == null;
        listener = listen(dispatcher, tlsOnMainPort ? tls : null, config.port());
        port = ((InetSocketAddress) listener.localAddress()).getPort();
        if (tls != null && !tlsOnMainPort) {
            tlsListener = listen(dispatcher, tls, security.tlsPort());
            tlsPort = ((InetSocketAddress) tlsListener.localAddress()).getPort();
        } else if (tlsOnMainPort) {
            tlsPort = port;
        }
        workers.scheduleAtFixedRate(idleConnections::sweep, IdleConnections.SWEEP_MILLIS, IdleConnections.SWEEP_MILLIS,
                TimeUnit.MILLISECONDS);
        workers.scheduleAtFixedRate(() -> idleConnections.closeSlowRequests(connectionGuards.problems()),
                IdleConnections.SLOW_SWEEP_MILLIS, IdleConnections.SLOW_SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        workers.scheduleAtFixedRate(connectionGuards.problems()::report, ConnectionProblems.REPORT_MILLIS,
                ConnectionProblems.REPORT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The engine's read-only lookup of a queue's Policy and tags, for authorization. */
    private RequestAuthorization.QueueLookup queueLookup() {
        if (service instanceof ServiceView view) {
            return view::queueAccess;
        }
        return (account, name) -> null;
    }

    private Channel listen(RequestDispatcher dispatcher, SslContext tls, int onPort) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new HttpChannelInitializer(dispatcher, state, config.clock(), config.maxBodyBytes(), tls,
                        connectionGuards));
        try {
            return bootstrap.bind(ListenAddress.resolve(config.host(), onPort)).sync().channel();
        } catch (Exception e) {
            throw new IllegalStateException("cannot listen on " + config.host() + ":" + onPort + ": " + e.getMessage(), e);
        }
    }

    /** The start summary: what was loaded, the settings in force, where it listens. */
    private void logStarted() {
        long startMillis = (System.nanoTime() - beganNanos) / 1_000_000;
        long queues = 0;
        long messages = 0;
        if (service instanceof ServiceView view) {
            for (QueueSnapshot q : view.queueSnapshots()) {
                queues++;
                messages += q.visible() + q.notVisible() + q.delayed();
            }
        }
        String storage = config.storage() == StorageMode.MEMORY ? "memory"
                : "rocksdb in " + config.dataDir().toAbsolutePath() + ", durability " + config.durability().name().toLowerCase(java.util.Locale.ROOT);
        LOG.info("Hikyaku {} started in {} ms ({} ms since the process began): {} queue(s) and {} message(s) loaded; listening on {}; advertised URL {}; "
                        + "storage {}; account {}, region {}; max body {} bytes; log format {}, access log {}; "
                        + "{} queue(s) from the config; {}",
                Version.current(), startMillis, java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime(),
                queues, messages,
                listener.localAddress(), config.advertisedUrl() != null ? config.advertisedUrl() : "(from each request's Host header)",
                storage, config.accountId(), config.region(), config.maxBodyBytes(),
                config.logFormat().name().toLowerCase(java.util.Locale.ROOT), config.accessLog() ? "on" : "off",
                config.queues().size(), metrics == null ? "metrics off" : "metrics at " + endpoint() + "/metrics");
    }

    /**
     * Push delivery: the config file's functions and mappings plus those created through the Lambda API,
     * kept in {@code <data dir>/event-source-mappings.json} (in memory only with storage memory).
     */
    private void startPush() {
        MappingStore store = config.storage() == StorageMode.MEMORY ? MappingStore.inMemory() : new FileMappingStore(config.dataDir());
        // pollers act in the mapping's account in-process: with auth on, only on that account's own queues (as its SQS calls)
        QueueAccess access = security != null && security.auth() == AuthMode.SIGV4 ? QueueAccess.OWN_ACCOUNT : QueueAccess.ANY;
        push = PushService.start(config.push(), service, store, config.clock(), config.region(), config.accountId(), access);
    }

    /** Push delivery (event source mappings and their counters), or null before the server has started. */
    public PushService push() {
        return push;
    }

    /** Runs the idle-connection sweep now (tests advance the clock instead of waiting for the timer). */
    void sweepIdleConnections() {
        idleConnections.sweep();
        idleConnections.closeSlowRequests(connectionGuards.problems());
    }

    /** Writes ADMIN into the data directory so {@code hikyaku backup} can reach this server. */
    private void publishAdminFile() {
        if (adminFile == null) {
            return;
        }
        adminFile = new AdminFile(adminUrl(), adminFile.token(), adminFile.pid());
        adminFile.write(config.dataDir());
    }

    /**
     * The admin endpoint as seen from this machine, at an address the listener really accepts: the
     * bound address itself, or for a wildcard bind the loopback address of its family.
     */
    private String adminUrl() {
        InetAddress bound = ((InetSocketAddress) listener.localAddress()).getAddress();
        if (bound.isAnyLocalAddress() || bound.isLoopbackAddress()) {
            return bound instanceof Inet6Address ? "http://[::1]:" + port : "http://127.0.0.1:" + port;
        }
        String literal = bound.getHostAddress();
        int zone = literal.indexOf('%');
        if (zone >= 0) {
            literal = literal.substring(0, zone) + "%25" + literal.substring(zone + 1);
        }
        return "http://" + (bound instanceof Inet6Address ? "[" + literal + "]" : literal) + ":" + port;
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return port;
    }

    /** Where clients reach the server, e.g. {@code http://127.0.0.1:9324} ({@code https://} when the main port is TLS). */
    public String endpoint() {
        return (tlsPort == port ? "https://" : "http://") + reachableHost() + ":" + port;
    }

    /** The HTTPS endpoint, e.g. {@code https://127.0.0.1:9443}, or null when TLS is not served. */
    public String tlsEndpoint() {
        return tlsPort < 0 ? null : "https://" + reachableHost() + ":" + tlsPort;
    }

    private String reachableHost() {
        String host = config.host();
        if (host.equals("0.0.0.0") || host.equals("::")) {
            host = "127.0.0.1";
        } else if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return host;
    }

    public ServerConfig config() {
        return config;
    }

    /** How requests are authenticated (null when started around a custom service). */
    public SecurityConfig security() {
        return security;
    }

    /**
     * Puts a new set of identities (accounts, keys, users, roles and their policies) in force at
     * once, without a restart: requests that start from now on are authenticated and authorized
     * against it. Auth mode, TLS and everything else stay as started; {@link #security()} still
     * describes the start.
     *
     * @throws IllegalStateException when the server was started around a custom service (no authentication)
     */
    public void replaceIdentities(Identities next) {
        RequestAuthentication a = authentication;
        if (a == null) {
            throw new IllegalStateException("this server authenticates nothing: there are no identities to replace");
        }
        a.replaceIdentities(next);
    }

    /** The identities in force (null when started around a custom service). */
    public Identities identities() {
        RequestAuthentication a = authentication;
        return a == null ? null : a.identities();
    }

    /**
     * For tests: waits until the server is idle, that is until every request it has received is answered (a parked
     * long poll is a request in flight) and SNS has no HTTP/S or lambda delivery pending or in flight (a retry
     * waiting for its time counts as pending). Checked twice, 10 ms apart, so that a delivery a request has just
     * handed over is seen. Work that the clock starts (a delayed message, a schedule, an alarm) starts when the
     * clock gets there, and is not waited for.
     *
     * @return true when idle, false when {@code timeout} passed first
     */
    public boolean awaitIdle(java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int quiet = 0;
        while (quiet < 2) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            quiet = idleNow() ? quiet + 1 : 0;
            Thread.sleep(10);
        }
        return true;
    }

    private boolean idleNow() {
        if (state.inFlight() > 0) {
            return false;
        }
        SnsService topics = sns;
        if (topics == null) {
            return true;
        }
        java.util.Map<String, Long> c = topics.counters();
        return c.getOrDefault("HttpDeliveriesPending", 0L) == 0 && c.getOrDefault("HttpDeliveriesInFlight", 0L) == 0;
    }

    /** Blocks until {@link #close()} has finished. */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            state.stopServing();
            if (adminFile != null && adminFile.url() != null) {
                adminFile.remove(config.dataDir());
            }
            if (listener != null) {
                listener.close().syncUninterruptibly();
            }
            if (tlsListener != null) {
                tlsListener.close().syncUninterruptibly();
            }
            int inFlight = state.inFlight();
            // Parked long polls get their empty answer now instead of holding the stop up; the
            // writes in flight are then waited for (their clients get their answers).
            try {
                int answered = service.beginStop();
                LOG.info("Stopping: {} request(s) in flight, {} parked long poll(s) answered empty", inFlight, answered);
            } catch (RuntimeException e) {
                LOG.warn("Answering the parked long polls failed; they end when the service closes", e);
            }
            if (leaderServices != null) {
                leaderServices.close(); // stops the cluster's services, and starts none again
            }
            if (scheduler != null) {
                scheduler.close(); // no fire after this
            }
            if (sns != null) {
                sns.close(); // no publish after this; its in-process sends finish with their callers
            }
            if (kms != null) {
                kms.close();
            }
            if (push != null) {
                push.close(); // pollers use the service: they stop (and their calls finish) before it stops;
                // after beginStop, so a poller parked in a long poll has had its answer
            }
            awaitInFlight();
            if (adminWorker != null) {
                adminWorker.shutdown(); // a running backup holds the store's lock, so the store's close waits for it
            }
            try {
                service.close();
            } catch (RuntimeException e) {
                LOG.warn("Closing the service failed", e);
            }
            if (clusterMode != null) {
                clusterMode.close(); // after the service: its last writes have settled
            }
            state.channels().close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            if (cloudWatch != null) {
                cloudWatch.close();
            }
            authorizations.close();
            if (metricsEndpoint != null) {
                metricsEndpoint.close();
            }
            if (metrics != null) {
                metrics.close();
            }
            LOG.info("Hikyaku stopped after {} s", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedNanos));
        } finally {
            terminated.countDown();
        }
    }

    private void awaitInFlight() {
        try {
            if (!state.awaitIdle(SHUTDOWN_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                LOG.info("Stopping with {} request(s) still in flight", state.inFlight());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Event-loop threads: one per core, at most 4 (the work per request is small; fewer threads, less memory). */
    private static int ioThreads() {
        return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }
}
