import Foundation
import XCTest

extension XCTestCase {
    /// Waits on the main actor, letting the screen's callbacks run, until `condition` holds, for
    /// `timeout` at most; fails the test if it never does.
    @MainActor
    func waitUntil(
        _ description: String, timeout: Duration = .seconds(10), file: StaticString = #filePath, line: UInt = #line,
        _ condition: () -> Bool
    ) async {
        let deadline = ContinuousClock.now + timeout
        while !condition(), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertTrue(condition(), "timed out waiting for \(description)", file: file, line: line)
    }
}
