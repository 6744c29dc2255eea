/// The stored properties of a class request value, read through `Mirror`.
///
/// Classes are read this way on every call: their fields are not at offsets inside the value (the value is a
/// reference), and a subclass adds fields its superclass's plan cannot know, so each dynamic type gets its own plan.
enum ClassRequestFields {
    /// Every stored property of `object`, base class first, with its wrapper when it is a request parameter.
    static func parameters(of object: Any) -> [(label: String, parameter: (any RequestParameter)?)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var result: [(label: String, parameter: (any RequestParameter)?)] = []
        for current in mirrors.reversed() {
            for (index, child) in current.children.enumerated() {
                result.append((child.label ?? "#\(index)", child.value as? any RequestParameter))
            }
        }
        return result
    }
}
