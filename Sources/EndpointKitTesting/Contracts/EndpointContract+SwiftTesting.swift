#if canImport(Testing)
import EndpointKit
import Foundation
import Testing

// Swift Testing adapters: each runs the framework-independent check and records a failing report
// as an issue at the caller's source location.

/// Records an issue, with a diff, unless `endpoint` built against `baseURL` matches `contract`.
/// - Parameters:
///   - endpoint: The endpoint value.
///   - contract: What it should send.
///   - baseURL: The base URL of the client.
///   - fileID: The caller's file ID.
///   - filePath: The caller's file path.
///   - line: The caller's line.
///   - column: The caller's column.
public func expectEndpoint<Request: APIRequest>(
    _ endpoint: Request, matches contract: EndpointContract, baseURL: URL, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    record(contract.check(endpoint, baseURL: baseURL), at: location)
}

/// Records an issue, with a diff, unless `endpoint` built by `client` matches `contract`.
/// - Parameters:
///   - endpoint: The endpoint value.
///   - contract: What it should send.
///   - client: The client whose configuration applies (base URL, default headers...).
///   - fileID: The caller's file ID.
///   - filePath: The caller's file path.
///   - line: The caller's line.
///   - column: The caller's column.
public func expectEndpoint<Request: APIRequest>(
    _ endpoint: Request, matches contract: EndpointContract, client: APIClient, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    record(contract.check(endpoint, client: client), at: location)
}

/// Records an issue with the report's diff unless the contract is satisfied.
/// - Parameters:
///   - report: The outcome of ``/EndpointKitStubs/EndpointContract/check(_:label:arrayEncoding:)`` or another check.
///   - fileID: The caller's file ID.
///   - filePath: The caller's file path.
///   - line: The caller's line.
///   - column: The caller's column.
public func expectContract(
    _ report: ContractReport, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
) {
    record(report, at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

private func record(_ report: ContractReport, at location: SourceLocation) {
    if !report.isSatisfied { Issue.record(Comment(rawValue: report.description), sourceLocation: location) }
}
#endif
