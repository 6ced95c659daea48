import Foundation

/// The seeds' approach to the decoding payload, for reference: `JSONSerialization`, then mapping
/// dictionaries to models by hand.
enum ManualMapping {
    struct MappingFailed: Error {}

    /// The items of a `statusResult` envelope whose status is 200.
    static func items(from data: Data) throws -> [Item] {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            (root["status"] as? NSNumber)?.intValue == 200, let result = root["result"] as? [[String: Any]]
        else { throw MappingFailed() }
        return try result.map(item)
    }

    private static func item(_ object: [String: Any]) throws -> Item {
        guard let id = (object["id"] as? NSNumber)?.intValue, let name = object["name"] as? String,
            let email = object["email"] as? String, let active = (object["active"] as? NSNumber)?.boolValue,
            let score = (object["score"] as? NSNumber)?.doubleValue, let createdAt = object["createdAt"] as? String,
            let tags = object["tags"] as? [String], let address = object["address"] as? [String: Any],
            let street = address["street"] as? String, let city = address["city"] as? String,
            let zip = address["zip"] as? String
        else { throw MappingFailed() }
        return Item(
            id: id, name: name, email: email, active: active, score: score, createdAt: createdAt, tags: tags,
            address: Address(street: street, city: city, zip: zip))
    }
}
