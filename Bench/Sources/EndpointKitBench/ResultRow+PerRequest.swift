extension ResultRow {
    /// Median time per request of each side of a row whose runs are `requests` requests each
    /// (scenario 7), and what EndpointKit and each reference add to the baseline's.
    struct PerRequest: Encodable {
        /// What a reference adds to the baseline's time per request.
        struct Reference: Encodable {
            /// The reference's name.
            let name: String
            /// Its median run over its requests, microseconds.
            let microseconds: Double
            /// `microseconds` minus the baseline's.
            let overheadMicroseconds: Double
        }

        /// EndpointKit's median run over its requests, microseconds.
        let endpointKitMicroseconds: Double
        /// The baseline's median run over its requests, microseconds.
        let baselineMicroseconds: Double
        /// EndpointKit's time per request minus the baseline's: the core overhead, microseconds.
        let overheadMicroseconds: Double
        /// The references, in the row's order.
        let references: [Reference]

        /// The figures of `sides` (EndpointKit, the baseline, then references); NaN for a side
        /// that did not run (`--only`).
        init(sides: [SideResult], requests: Int) {
            let micros = sides.map { $0.medianWallSeconds / Double(max(requests, 1)) * 1e6 }
            let baseline = micros.dropFirst().first ?? .nan
            endpointKitMicroseconds = micros.first ?? .nan
            baselineMicroseconds = baseline
            overheadMicroseconds = endpointKitMicroseconds - baseline
            references = zip(sides.dropFirst(2), micros.dropFirst(2)).map { side, time in
                Reference(name: side.name, microseconds: time, overheadMicroseconds: time - baseline)
            }
        }

        /// One line for the table's notes: the overhead of EndpointKit and of each reference.
        var summary: String {
            let overheads =
                [("EndpointKit", overheadMicroseconds)] + references.map { ($0.name, $0.overheadMicroseconds) }
            return "core overhead per request (median minus the baseline's): "
                + overheads.map { "\($0) \(Format.fixed($1, 2)) us" }.joined(separator: "; ")
        }
    }
}
