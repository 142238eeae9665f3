package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every type a user meets through the exported packages is itself exported (or the JDK's): a public method that
 * returns or takes a type from a package the module keeps to itself cannot be called by users and freezes that
 * internal type as API.
 */
class ApiSurfaceTest {
    @Test
    void exportedTypesMentionOnlyExportedTypes() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : exportedClasses()) {
            if (!Modifier.isPublic(type.getModifiers())) {
                continue;
            }
            List<Member> members = new ArrayList<>();
            members.addAll(List.of(type.getDeclaredMethods()));
            members.addAll(List.of(type.getDeclaredConstructors()));
            members.addAll(List.of(type.getDeclaredFields()));
            for (Member member : members) {
                if (!Modifier.isPublic(member.getModifiers()) && !Modifier.isProtected(member.getModifiers())) {
                    continue;
                }
                if (member instanceof Method method && method.isSynthetic()) {
                    continue;
                }
                for (Type used : typesOf(member)) {
                    for (Class<?> mentioned : classesIn(used)) {
                        if (!visible(mentioned)) {
                            leaks.add(type.getSimpleName() + "." + member.getName() + " uses " + mentioned.getName());
                        }
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    private static List<Type> typesOf(Member member) {
        List<Type> types = new ArrayList<>();
        if (member instanceof Method method) {
            types.add(method.getGenericReturnType());
        }
        if (member instanceof Executable executable) {
            types.addAll(List.of(executable.getGenericParameterTypes()));
            types.addAll(List.of(executable.getGenericExceptionTypes()));
        }
        if (member instanceof Field field) {
            types.add(field.getGenericType());
        }
        return types;
    }

    private static List<Class<?>> classesIn(Type type) {
        List<Class<?>> classes = new ArrayList<>();
        if (type instanceof Class<?> c) {
            classes.add(c.isArray() ? c.componentType() : c);
        } else if (type instanceof ParameterizedType p) {
            classes.addAll(classesIn(p.getRawType()));
            for (Type argument : p.getActualTypeArguments()) {
                classes.addAll(classesIn(argument));
            }
        } else if (type instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                classes.addAll(classesIn(bound));
            }
            for (Type bound : w.getLowerBounds()) {
                classes.addAll(classesIn(bound));
            }
        }
        return classes;
    }

    /** A class users can name: primitive, the JDK's, or in a package some module exports unqualified. */
    private static boolean visible(Class<?> type) {
        if (type.isPrimitive()) {
            return true;
        }
        Module module = type.getModule();
        String pkg = type.getPackageName();
        if (module.isNamed()) {
            return module.isExported(pkg);
        }
        // On the class path (tests): judge by the module descriptors of Shuttle's modules.
        return pkg.startsWith("java.") || pkg.startsWith("javax.") || EXPORTED.contains(pkg);
    }

    private static final List<String> EXPORTED = List.of("dev.shuttle.server", "dev.shuttle.server.routing",
            "dev.shuttle.server.files", "dev.shuttle.server.compress", "dev.shuttle.server.log",
            "dev.shuttle.wire", "dev.shuttle.transport.tls");

    /** The classes of every package the server module exports, found from the compiled classes. */
    private static List<Class<?>> exportedClasses() throws Exception {
        Module module = HttpServer.class.getModule();
        List<String> packages = module.isNamed()
                ? module.getDescriptor().exports().stream().filter(e -> !e.isQualified())
                        .map(e -> e.source()).toList()
                : EXPORTED.stream().filter(p -> p.startsWith("dev.shuttle.server")).toList();
        URI location = HttpServer.class.getProtectionDomain().getCodeSource().getLocation().toURI();
        Path root = Path.of(location);
        List<Class<?>> classes = new ArrayList<>();
        if (Files.isRegularFile(root)) {
            try (FileSystem jar = FileSystems.newFileSystem(root, Map.of())) {
                collect(jar.getPath("/"), packages, classes);
            }
        } else {
            collect(root, packages, classes);
        }
        return classes;
    }

    private static void collect(Path root, List<String> packages, List<Class<?>> into)
            throws IOException, ClassNotFoundException {
        for (String pkg : packages) {
            Path dir = root.resolve(pkg.replace('.', '/'));
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".class") && !name.equals("package-info.class")
                            && !name.equals("module-info.class")) {
                        into.add(Class.forName(pkg + "." + name.substring(0, name.length() - 6), false,
                                HttpServer.class.getClassLoader()));
                    }
                }
            }
        }
    }
}
