#if canImport(XCTest)
import EndpointKit
import Foundation
import XCTest

// XCTest adapters: each runs the framework-independent check and reports a failing report with
// `XCTFail` at the caller's line.

/// Fails the test, with a diff, unless `endpoint` built against `baseURL` matches `contract`.
/// - Parameters:
///   - endpoint: The endpoint value.
///   - contract: What it should send.
///   - baseURL: The base URL of the client.
///   - file: The file to report the failure in; the caller's by default.
///   - line: The line to report the failure at; the caller's by default.
public func assertEndpoint<Request: APIRequest>(
    _ endpoint: Request, matches contract: EndpointContract, baseURL: URL, file: StaticString = #filePath,
    line: UInt = #line
) {
    assertContract(contract.check(endpoint, baseURL: baseURL), file: file, line: line)
}

/// Fails the test, with a diff, unless `endpoint` built by `client` matches `contract`.
/// - Parameters:
///   - endpoint: The endpoint value.
///   - contract: What it should send.
///   - client: The client whose configuration applies (base URL, default headers...).
///   - file: The file to report the failure in; the caller's by default.
///   - line: The line to report the failure at; the caller's by default.
public func assertEndpoint<Request: APIRequest>(
    _ endpoint: Request, matches contract: EndpointContract, client: APIClient, file: StaticString = #filePath,
    line: UInt = #line
) {
    assertContract(contract.check(endpoint, client: client), file: file, line: line)
}

/// Fails the test with the report's diff unless the contract is satisfied.
/// - Parameters:
///   - report: The outcome of ``/EndpointKitStubs/EndpointContract/check(_:label:arrayEncoding:)`` or another check.
///   - file: The file to report the failure in; the caller's by default.
///   - line: The line to report the failure at; the caller's by default.
public func assertContract(_ report: ContractReport, file: StaticString = #filePath, line: UInt = #line) {
    if !report.isSatisfied { XCTFail(report.description, file: file, line: line) }
}
#endif
