#if AsyncHTTPClient
    import AsyncHTTPClient

    /// An `HTTPClient` that `AsyncHTTPClientTransport` refused when it was made, because through it RetroSwift's rules
    /// would not hold, with how to make one it accepts.
    public struct UnsuitableClientError: Error, Sendable, CustomStringConvertible {
        /// Why the client was refused.
        public enum Kind: Sendable, Hashable {
            /// The client follows redirects itself (`HTTPClient.shared` and async-http-client's default configuration
            /// do): it decides each hop before RetroSwift sees it, so the domain's `RedirectPolicy` would not apply and a
            /// credential header RetroSwift withholds from another origin would reach it.
            case followsRedirects
            /// The client retries a connection that could not be made (`connectionPool.retryConnectionEstablishment`,
            /// async-http-client's default) until its connect timeout, and keeps the reason from the calls waiting for
            /// it: a refused certificate or a refused connection would end a call only when its timeout ran out, as a
            /// timeout, instead of at once with its cause. RetroSwift's `RetryInterceptor` retries calls.
            case retriesFailedConnections
            /// Whether the client follows redirects cannot be read: async-http-client keeps a client's configuration
            /// internal, and this version of it does not keep the configuration where RetroSwift reads it.
            case unreadableConfiguration
        }

        /// Why the client was refused.
        public let kind: Kind
        /// The initializer's parameter the client was given as: `client` or `streamingClient`.
        public let parameter: String

        /// Creates an error; `AsyncHTTPClientTransport` makes these.
        ///
        /// - Parameters:
        ///   - kind: Why the client was refused.
        ///   - parameter: The initializer's parameter the client was given as.
        init(_ kind: Kind, parameter: String) {
            self.kind = kind
            self.parameter = parameter
        }

        /// What was refused, why, and how to make a client the transport accepts.
        public var description: String {
            let refused = "AsyncHTTPClientTransport refuses the HTTPClient given as `\(parameter)`: "
            let fix =
                "Create the client from AsyncHTTPClientTransport.clientConfiguration: `HTTPClient(eventLoopGroup: "
                + "HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.clientConfiguration)`, or set "
                + "`redirectConfiguration = .disallow` and `connectionPool.retryConnectionEstablishment = false` on your "
                + "own `HTTPClient.Configuration`; RetroSwift then follows redirects by the domain's RedirectPolicy."
            switch kind {
            case .followsRedirects:
                return refused
                    + "it follows redirects itself (HTTPClient.shared and async-http-client's default configuration do), "
                    + "so the domain's RedirectPolicy would not decide each hop and a credential header would reach "
                    + "another origin. " + fix
            case .retriesFailedConnections:
                return refused
                    + "it retries a connection that cannot be made (connectionPool.retryConnectionEstablishment, "
                    + "async-http-client's default) and keeps the reason from the call, so a refused certificate or "
                    + "connection would end the call only when its timeout runs out, as a timeout, not at once with its "
                    + "cause. " + fix
            case .unreadableConfiguration:
                return refused
                    + "whether it follows redirects cannot be read (async-http-client keeps a client's configuration "
                    + "internal, and this version of it keeps it where RetroSwift does not look), and one that does would "
                    + "bypass the domain's RedirectPolicy. Use an async-http-client version RetroSwift supports, or "
                    + "NIOTransport."
            }
        }
    }

    extension AsyncHTTPClientTransport {
        /// A configuration for a client this transport accepts: async-http-client's `singletonConfiguration` (the one
        /// `HTTPClient.shared` has) with redirects disallowed, so that RetroSwift follows them by the domain's
        /// `RedirectPolicy`, and no retry of a connection that cannot be made, so that a refused certificate or
        /// connection fails the call at once with its cause. Change what else you need before making the client; its
        /// lifetime is yours.
        public static var clientConfiguration: HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            configuration.connectionPool.retryConnectionEstablishment = false
            return configuration
        }

        /// Throws unless `client` is known to leave redirects to RetroSwift and not to retry connections.
        ///
        /// async-http-client decides a redirect in its request state machine, before a response delegate sees the
        /// answer as one (`didVisitURL` comes first, but stopping there loses the 3xx's body and connection), has no
        /// per-request redirect setting, and keeps `HTTPClient.configuration` internal. Swift's `Mirror` reads internal
        /// stored properties, so the mode is read there; the tests pin that `.disallow` is accepted and `.follow` and
        /// `HTTPClient.shared` refused, so a version that moves it fails them, and here any layout not recognised is
        /// refused rather than guessed.
        ///
        /// A client that retries a connection it could not make (`retryConnectionEstablishment`) keeps the calls waiting
        /// for it in its pool, with the reason kept in the pool's state, until the client's connect timeout (90 s in
        /// `singletonConfiguration`): no delegate or per-request logger hears of the failure (only the client's
        /// background logger does), so the transport could only fail such a call at its own timeout.
        ///
        /// - Parameters:
        ///   - client: The client to check.
        ///   - parameter: The initializer's parameter it was given as, for the error.
        /// - Throws: ``UnsuitableClientError`` when it follows redirects, retries failed connections, or its
        ///   configuration cannot be read.
        static func check(_ client: HTTPClient, as parameter: String) throws(UnsuitableClientError) {
            guard let configuration = Mirror(reflecting: client).descendant("configuration") as? HTTPClient.Configuration,
                let mode = Mirror(reflecting: configuration.redirectConfiguration).descendant("mode")
            else { throw UnsuitableClientError(.unreadableConfiguration, parameter: parameter) }
            let modeMirror = Mirror(reflecting: mode)
            guard modeMirror.displayStyle == .enum else {
                throw UnsuitableClientError(.unreadableConfiguration, parameter: parameter)
            }
            // An enum case with a payload shows as one child labelled with the case; one without shows none.
            if modeMirror.children.first?.label == "follow" {
                throw UnsuitableClientError(.followsRedirects, parameter: parameter)
            }
            guard modeMirror.children.isEmpty, String(describing: mode) == "disallow" else {
                throw UnsuitableClientError(.unreadableConfiguration, parameter: parameter)
            }
            if configuration.connectionPool.retryConnectionEstablishment {
                throw UnsuitableClientError(.retriesFailedConnections, parameter: parameter)
            }
        }
    }
#endif
