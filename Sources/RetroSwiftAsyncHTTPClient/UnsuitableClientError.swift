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
                "Create the client with redirects disallowed, as AsyncHTTPClientTransport.clientConfiguration is: "
                + "`HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: "
                + "AsyncHTTPClientTransport.clientConfiguration)`, or set `redirectConfiguration = .disallow` on your own "
                + "`HTTPClient.Configuration`; RetroSwift then follows redirects by the domain's RedirectPolicy."
            switch kind {
            case .followsRedirects:
                return refused
                    + "it follows redirects itself (HTTPClient.shared and async-http-client's default configuration do), "
                    + "so the domain's RedirectPolicy would not decide each hop and a credential header would reach "
                    + "another origin. " + fix
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
        /// `RedirectPolicy`. Change what else you need before making the client; its lifetime is yours.
        public static var clientConfiguration: HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            return configuration
        }

        /// Throws unless `client` is known to leave redirects to RetroSwift.
        ///
        /// async-http-client decides a redirect in its request state machine, before a response delegate sees the
        /// answer as one (`didVisitURL` comes first, but stopping there loses the 3xx's body and connection), has no
        /// per-request redirect setting, and keeps `HTTPClient.configuration` internal. Swift's `Mirror` reads internal
        /// stored properties, so the mode is read there; the tests pin that `.disallow` is accepted and `.follow` and
        /// `HTTPClient.shared` refused, so a version that moves it fails them, and here any layout not recognised is
        /// refused rather than guessed.
        ///
        /// - Parameters:
        ///   - client: The client to check.
        ///   - parameter: The initializer's parameter it was given as, for the error.
        /// - Throws: ``UnsuitableClientError`` when it follows redirects or its configuration cannot be read.
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
        }
    }
#endif
