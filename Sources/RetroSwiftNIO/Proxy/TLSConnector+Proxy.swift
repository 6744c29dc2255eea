#if NIO
    import NIOSSL

    extension TLSConnector {
        /// The context of a connection through a proxy to an origin named by its IP address: SwiftNIO SSL would check
        /// the certificate against the address the socket is connected to, the proxy's, so its own check is off here,
        /// and the transport's verification (`ServerIdentityPolicy` with the origin's address) does it instead.
        static let tunnelledAddressContext: Result<NIOSSLContext, any Error> = Result {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.applicationProtocols = ["http/1.1"]
            configuration.certificateVerification = .noHostnameVerification
            return try NIOSSLContext(configuration: configuration)
        }

        /// The same for connections that offer HTTP/2 first.
        static let tunnelledAddressHTTP2Context: Result<NIOSSLContext, any Error> = Result {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.applicationProtocols = ["h2", "http/1.1"]
            configuration.certificateVerification = .noHostnameVerification
            return try NIOSSLContext(configuration: configuration)
        }
    }
#endif
