package dev.shuttle.benchmarks.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Another build of shuttle-client in the same JVM, for before/after comparisons in one run (the machine is too noisy
 * for runs minutes apart to compare): {@code -Dshuttle.baseline=/path/to/shuttle-client.jar} and client name
 * {@code shuttle-base} ({@link ClientThroughput}; {@code shuttle-base[-bounded|-none]} in {@link CloseLatency}). A
 * child-first class loader defines {@code dev.shuttle.client.*} from that jar and its own copy of the adapter
 * ({@link ShuttleBenchClient}, {@link ShuttleUnreadCloser}), whose calls then bind to the baseline; everything else
 * (the wire module, the harness's interfaces) is shared with the application class loader.
 */
final class BaselineShuttle {
    private static final String PROPERTY = "shuttle.baseline";

    private BaselineShuttle() {
    }

    static BenchClient create(Protocol protocol) {
        return create(ShuttleBenchClient.class, BenchClient.class, protocol);
    }

    /**
     * An instance of {@code adapter} (a class of this package, compiled against the client's API) defined again
     * against the baseline build, so that its calls bind to that build.
     *
     * @param face what the caller sees it as: an interface loaded by the application class loader
     * @param args constructor arguments, of JDK or harness types only (the client's own types would be the
     *             baseline's); a harness type must be public, the adapter being in another runtime package
     */
    static <T> T create(Class<?> adapter, Class<T> face, Object... args) {
        String jar = System.getProperty(PROPERTY);
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalArgumentException("the baseline client needs -D" + PROPERTY
                    + "=<shuttle-client jar>, got " + jar);
        }
        try {
            ClassLoader loader = new ChildFirst(adapter.getName(), new URL[] {Path.of(jar).toUri().toURL()},
                    BaselineShuttle.class.getClassLoader());
            Class<?>[] types = new Class<?>[args.length];
            for (int i = 0; i < args.length; i++) {
                types[i] = args[i].getClass();
            }
            var constructor = loader.loadClass(adapter.getName()).getDeclaredConstructor(types);
            constructor.setAccessible(true);
            return face.cast(constructor.newInstance(args));
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load the baseline client from " + jar, e);
        }
    }

    /** Defines the client's classes and the adapter itself; delegates the rest. */
    private static final class ChildFirst extends URLClassLoader {
        private final String adapter;
        private final ClassLoader parent;

        ChildFirst(String adapter, URL[] urls, ClassLoader parent) {
            super("shuttle-baseline", urls, parent);
            this.adapter = adapter;
            this.parent = parent;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    if (name.equals(adapter)) {
                        loaded = defineFromParent(name);
                    } else if (name.startsWith("dev.shuttle.client.")) {
                        loaded = findClass(name);
                    } else {
                        loaded = parent.loadClass(name);
                    }
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        /** The adapter's bytes come from the harness's own jar, defined again here so it binds to the baseline. */
        private Class<?> defineFromParent(String name) throws ClassNotFoundException {
            String resource = name.replace('.', '/') + ".class";
            try (InputStream in = parent.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
