package dev.syncdex.localopensearch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.index.mapper.MapperExtrasPlugin;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * Runs one OpenSearch node in this JVM, HTTP on 127.0.0.1 only.
 *
 * Why not org.opensearch.bootstrap.OpenSearch: it refuses to run as root (CI runs as root) and
 * wants a distribution layout with modules/ and plugins/ folders. A Node built here gets its
 * modules as classpath plugins and skips the bootstrap checks, which exist for production nodes.
 *
 * Usage: LocalNode HOME HTTP_PORT TRANSPORT_PORT [--exit-on-stdin-close]
 * Prints "syncdex-local-opensearch started http://127.0.0.1:PORT" once the node answers.
 */
public final class LocalNode {
    private static final List<Class<? extends Plugin>> MODULES = List.of(
        Netty4Plugin.class,
        CommonAnalysisPlugin.class,
        MapperExtrasPlugin.class,
        ReindexPlugin.class,
        PainlessPlugin.class
    );

    /** Exposes Node's protected constructor, the one that takes classpath plugins. */
    private static final class ClasspathNode extends Node {
        ClasspathNode(Environment env) {
            super(env, MODULES, true);
        }
    }

    private LocalNode() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: LocalNode HOME HTTP_PORT TRANSPORT_PORT [--exit-on-stdin-close]");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Settings settings = settings(home, args[1], args[2]);
        LogConfigurator.configureWithoutConfig(settings);
        Environment env = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), home.resolve("config"), () -> "local");
        Node node = new ClasspathNode(env);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> close(node, stopped), "local-opensearch-stop"));
        node.start();
        System.out.println("syncdex-local-opensearch started http://127.0.0.1:" + args[1]);
        System.out.flush();
        if (args.length > 3 && args[3].equals("--exit-on-stdin-close")) {
            // The parent holds our stdin: when it dies, even by SIGKILL, the pipe closes and we go too.
            waitForEof(System.in);
            System.exit(0);
        }
        stopped.await();
    }

    private static Settings settings(Path home, String httpPort, String transportPort) {
        return Settings.builder()
            .put("path.home", home.toString())
            .put("path.data", home.resolve("data").toString())
            .put("path.logs", home.resolve("logs").toString())
            .put("cluster.name", "syncdex-local")
            .put("node.name", "local")
            .put("discovery.type", "single-node")
            .put("network.host", "127.0.0.1")
            .put("http.port", httpPort)
            .put("transport.port", transportPort)
            // A throwaway node on a shared disk: never go read-only because the disk is full-ish.
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            .put("logger.level", System.getProperty("local.opensearch.log", "WARN"))
            .build();
    }

    private static void waitForEof(InputStream in) {
        byte[] buf = new byte[256];
        try {
            while (in.read(buf) >= 0) {
                // Anything written to stdin is ignored; only its end matters.
            }
        } catch (IOException ignored) {
            // A broken pipe is an end too.
        }
    }

    private static void close(Node node, CountDownLatch stopped) {
        try {
            node.close();
            node.awaitClose(20, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            System.err.println("local OpenSearch did not close cleanly: " + e);
        } finally {
            stopped.countDown();
        }
    }
}
