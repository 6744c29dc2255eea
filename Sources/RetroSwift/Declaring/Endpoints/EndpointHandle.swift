/// Controls an endpoint's mock, reached through the endpoint's projected value: `api.$getSchedules`.
public struct EndpointHandle: Sendable {
    let isMockedProbe: @Sendable () -> Bool
    let remove: @Sendable () -> Void

    /// Whether a closure has been assigned to the endpoint.
    public var isMocked: Bool {
        isMockedProbe()
    }

    /// Removes the assigned closure, so calls go over the wire again.
    public func removeMock() {
        remove()
    }
}
