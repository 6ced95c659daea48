import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The outcome of checking a request against an ``EndpointContract``: the mismatches, if any, and
/// a message with a diff that test adapters report as the failure.
public struct ContractReport: Sendable, CustomStringConvertible {
    /// The name of what was checked, such as the endpoint type.
    public let label: String
    /// The request that was checked; `nil` when it could not be built.
    public let request: URLRequest?
    /// Every difference found, in the order method, URL, query, headers, body.
    public let mismatches: [ContractMismatch]

    /// Creates a report.
    /// - Parameters:
    ///   - label: The name of what was checked.
    ///   - request: The request checked, if it could be built.
    ///   - mismatches: The differences found.
    public init(label: String, request: URLRequest?, mismatches: [ContractMismatch]) {
        self.label = label
        self.request = request
        self.mismatches = mismatches
    }

    /// Whether the request matches its contract.
    public var isSatisfied: Bool { mismatches.isEmpty }

    /// `Label matches its contract.`, or every mismatch with its diff and the request that was sent.
    public var description: String {
        guard !isSatisfied else { return "\(label) matches its contract." }
        let count = mismatches.count == 1 ? "1 mismatch" : "\(mismatches.count) mismatches"
        var lines = ["\(label) does not match its contract (\(count); - expected, + actual):"]
        for mismatch in mismatches {
            lines += mismatch.description.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        }
        if let request { lines.append("  request: \(request.label)") }
        return lines.joined(separator: "\n")
    }

    /// Throws ``ContractViolation`` unless the request matches its contract.
    public func throwIfViolated() throws(ContractViolation) {
        if !isSatisfied { throw ContractViolation(report: self) }
    }
}

/// A request that does not match its ``EndpointContract``, as an error.
public struct ContractViolation: Error, Sendable, CustomStringConvertible {
    /// The report with the mismatches.
    public let report: ContractReport

    /// The report's message.
    public var description: String { report.description }
}
