/// The small model of the network scenarios: one user, about 120 bytes of JSON.
struct UserModel: Decodable, Sendable, Equatable {
    let id: Int
    let name: String
    let email: String
    let active: Bool
    let score: Double
    let tags: [String]
}

/// One object of the decoding payload, about 250 bytes of JSON.
struct Item: Decodable, Sendable, Equatable {
    let id: Int
    let name: String
    let email: String
    let active: Bool
    let score: Double
    let createdAt: String
    let tags: [String]
    let address: Address
}

/// The nested object inside each ``Item``.
struct Address: Decodable, Sendable, Equatable {
    let street: String
    let city: String
    let zip: String
}

/// The `statusResult` envelope written by hand, as the baseline decodes it with a bare
/// `JSONDecoder`: the same keys EndpointKit's `KeyPathEnvelope.statusResult()` reads.
struct ItemPageEnvelope: Decodable {
    /// The paging object of the envelope.
    struct Page: Decodable {
        let totalRows: Int
        let hasMore: Bool
    }

    let status: Int
    let errCode: String?
    let errMsg: String?
    let page: Page?
    let result: [Item]
}
