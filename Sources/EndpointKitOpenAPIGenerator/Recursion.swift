/// Finds the properties through which a struct contains itself and boxes them, so the
/// generated structs have a finite size.
enum Recursion {
    /// The declarations with every property on a cycle of structs marked `boxed`.
    static func boxing(_ declarations: [Declaration]) -> [Declaration] {
        var byName: [String: Declaration] = [:]
        for declaration in declarations { byName[declaration.name] = declaration }
        func structName(_ type: SwiftType, depth: Int = 0) -> String? {
            guard depth < 64 else { return nil }
            switch type {
            case .optional(let wrapped): return structName(wrapped, depth: depth + 1)
            case .named(let name):
                switch byName[name] {
                case .structure?: return name
                case .alias(_, _, let target)?: return structName(target, depth: depth + 1)
                default: return nil
                }
            default: return nil
            }
        }
        var edges: [String: [String]] = [:]
        for case .structure(let name, _, let properties) in declarations {
            edges[name] = properties.compactMap { structName($0.type) }
        }
        var reachable: [String: Set<String>] = [:]
        func reach(_ start: String) -> Set<String> {
            if let known = reachable[start] { return known }
            var seen: Set<String> = []
            var stack = edges[start] ?? []
            while let next = stack.popLast() {
                guard seen.insert(next).inserted else { continue }
                stack += edges[next] ?? []
            }
            reachable[start] = seen
            return seen
        }
        return declarations.map { declaration in
            guard case .structure(let name, let documentation, var properties) = declaration else { return declaration }
            for index in properties.indices {
                if let target = structName(properties[index].type), target == name || reach(target).contains(name) {
                    properties[index].boxed = true
                }
            }
            return .structure(name: name, documentation: documentation, properties: properties)
        }
    }
}
