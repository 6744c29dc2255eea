extension Domain {
    /// Removes every mock, so all endpoints go over the wire again.
    public func removeAllMocks() {
        for property in endpointProperties() { property.endpoint.removeMock() }
    }

    /// The endpoint wrappers stored in this instance, subclass first, with their storage labels (`_getSchedules`).
    func endpointProperties() -> [(label: String, endpoint: any EndpointProtocol)] {
        var result: [(label: String, endpoint: any EndpointProtocol)] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let label = child.label, let endpoint = child.value as? any EndpointProtocol {
                    result.append((label, endpoint))
                }
            }
            mirror = current.superclassMirror
        }
        return result
    }
}
