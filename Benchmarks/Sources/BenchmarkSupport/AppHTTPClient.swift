import AsyncHTTPClient
import RetroSwiftAsyncHTTPClient

/// The app's own async-http-client client, made once per process and never shut down, as `HTTPClient.shared` is, and
/// with its configuration except that redirects are disallowed, which `AsyncHTTPClientTransport` requires. The raw
/// baselines go through it too, so both sides of a ratio use the same client.
public enum AppHTTPClient {
    /// The client.
    public static let shared = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.clientConfiguration)
}
