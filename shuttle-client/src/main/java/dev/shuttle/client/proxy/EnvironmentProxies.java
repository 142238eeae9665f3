package dev.shuttle.client.proxy;

import java.util.Map;

/**
 * Reads proxies from the environment by Go's {@code ProxyFromEnvironment} rules: {@code HTTP_PROXY} for http
 * requests, {@code HTTPS_PROXY} for https ones, {@code NO_PROXY} for the hosts that bypass both; each name upper case
 * first, then lower case; an empty value is no value. In a CGI environment ({@code REQUEST_METHOD} set) HTTP_PROXY is
 * refused: a client request could set it through the {@code Proxy} header ("httpoxy"). A value that cannot be used
 * fails the requests it would route, with the reason, not the client.
 */
public final class EnvironmentProxies {
    private EnvironmentProxies() {
    }

    public static ShuttleProxySelector from(Map<String, String> environment) {
        String noProxy = first(environment, "NO_PROXY", "no_proxy");
        ProxyServer http = null;
        String httpError = null;
        String httpValue = first(environment, "HTTP_PROXY", "http_proxy");
        if (httpValue != null) {
            if (first(environment, "REQUEST_METHOD") != null) {
                httpError = "refusing to use HTTP_PROXY in a CGI environment (REQUEST_METHOD is set): a request's Proxy"
                        + " header could have set it";
            } else {
                try {
                    http = ProxyUrl.parse(httpValue);
                } catch (IllegalArgumentException e) {
                    httpError = "HTTP_PROXY: " + e.getMessage();
                }
            }
        }
        ProxyServer https = null;
        String httpsError = null;
        String httpsValue = first(environment, "HTTPS_PROXY", "https_proxy");
        if (httpsValue != null) {
            try {
                https = ProxyUrl.parse(httpsValue);
            } catch (IllegalArgumentException e) {
                httpsError = "HTTPS_PROXY: " + e.getMessage();
            }
        }
        String description = "environment (HTTP_PROXY " + (http != null ? http : httpValue == null ? "unset" : "unusable")
                + ", HTTPS_PROXY " + (https != null ? https : httpsValue == null ? "unset" : "unusable")
                + (noProxy == null ? "" : ", NO_PROXY " + noProxy) + ")";
        return new ShuttleProxySelector(http, https, httpError, httpsError, NoProxy.parse(noProxy, true), description);
    }

    private static String first(Map<String, String> environment, String... names) {
        for (String name : names) {
            String value = environment.get(name);
            if (value != null && !value.isEmpty()) {
                return value;
            }
        }
        return null;
    }
}
