// swift-format-ignore-file
// (Stand-ins the documentation's partial examples are type-checked against, never run and never
// shipped: the library's lint rules, documentation and no force unwrap, do not apply.)
// Stand-ins for the app around the documentation's examples, for `.ci/snippets`.
//
// A block marked `<!-- snippet: partial -->` may use these names without declaring them (a
// `client`, a `User`, a `tableView`): they are what a reader assumes the surrounding app has.
// Unmarked blocks never see them. A page's own declarations shadow them.
import EndpointKit
import EndpointKitComposition
import EndpointKitFeedback
import EndpointKitOutbox
import EndpointKitStreaming
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Values an app has

public let url = URL(string: "https://api.example.com")!
public let base = url
public let client = APIClient(baseURL: url)
public let authClient = client
public let documents = FileManager.default.temporaryDirectory
public let cachesURL = FileManager.default.temporaryDirectory
public let files = [URL(fileURLWithPath: "/tmp/a.jpg"), URL(fileURLWithPath: "/tmp/b.jpg")]
public let ids = [1, 2, 3]
public let id = 7
public let deviceID = "device-1"

// MARK: - Models and endpoints

public struct User: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var teamID: Int
    public init(id: Int, name: String, teamID: Int = 1) {
        self.id = id
        self.name = name
        self.teamID = teamID
    }
}

public struct Post: Codable, Sendable, Equatable {
    public var id: Int
    public var title: String
}

public struct Article: Codable, Sendable, Equatable {
    public var id: Int
    public var title: String
    public var likes: Int
}

public struct Ad: Codable, Sendable {
    public var id: Int
}

public struct Team: Codable, Sendable {
    public var id: Int
    public var projectID: Int
}

public struct Project: Codable, Sendable {
    public var id: Int
    public var name: String
}

public struct GetUser: APIRequest {
    public typealias Response = User
    public let id: Int
    public init(id: Int) { self.id = id }
    public var path: RequestPath { "/users/\(id)" }
}

public struct GetFeed: APIRequest {
    public typealias Response = [Post]
    public init() {}
    public var path: RequestPath { "/feed" }
}

public typealias Feed = GetFeed

public struct GetAds: APIRequest {
    public typealias Response = [Ad]
    public init() {}
    public var path: RequestPath { "/ads" }
}

public struct GetTeam: APIRequest {
    public typealias Response = Team
    public let id: Int
    public init(id: Int) { self.id = id }
    public var path: RequestPath { "/teams/\(id)" }
}

public struct GetProject: APIRequest {
    public typealias Response = Project
    public let id: Int
    public init(id: Int) { self.id = id }
    public var path: RequestPath { "/projects/\(id)" }
}

public struct UploadPhoto: APIRequest {
    public typealias Response = Empty
    public let file: URL
    public init(file: URL) { self.file = file }
    public var method: HTTPMethod { .post }
    public var path: RequestPath { "/photos" }
    public var parameters: RequestParameters { .file(file) }
}

// MARK: - The app's own UI and helpers

public func show(_ value: Any) {}
public func showError(_ value: Any) {}
public func log(_ message: String) {}
public func render(_ value: Any) {}
public func retryLater(_ file: URL) {}
public func signIn() {}
public func showToast(_ text: String) {}

/// A view: a table, a spinner, a progress bar, a banner.
@MainActor public final class PlaceholderView {
    public var isHidden = false
    public var text: String?
    public var value = 0.0
    public init() {}
    public func reloadData() {}
    public func endRefreshing() {}
}

@MainActor public let banner = UIView()
@MainActor public let bar = PlaceholderView()
@MainActor public let window = UIView()

/// A loading indicator in the style of MBProgressHUD / SVProgressHUD.
@MainActor public final class PlaceholderHUD {
    public init() {}
    public func show() {}
    public func hide() {}
    public static func show(_ text: String?, in view: UIView? = nil) {}
    public static func hide() {}
}
public typealias HUD = PlaceholderHUD
public typealias Toast = PlaceholderToast
@MainActor public let hud = PlaceholderHUD()

@MainActor public enum PlaceholderToast {
    public static func show(_ text: String) {}
}

/// What `self` is in a partial block: a view controller with the usual views, that can be the
/// delegate of a request, a batch or a paginator.
@MainActor open class PlaceholderController: APIRequestDelegate, BatchRequestDelegate, PaginatorDelegate {
    public let tableView = PlaceholderView()
    public let refreshControl = PlaceholderView()
    public let footer = PlaceholderView()
    public let formView = UIView()
    public init() {}
}

// MARK: - UIKit, where there is none (Linux): just enough for the examples' view controllers

#if canImport(UIKit)
@_exported import UIKit
#else
@MainActor open class UIView {
    public var isHidden = false
    public init() {}
}

@MainActor public final class UITableView: UIView {
    public func reloadData() {}
}

@MainActor public final class UIRefreshControl: UIView {
    public func endRefreshing() {}
}

@MainActor public final class UILabel: UIView {
    public var text: String?
}

@MainActor open class UIViewController {
    public let view = UIView()
    public init() {}
    open func viewDidLoad() {}
}

public struct UIImage: Sendable {
    public init?(named name: String) {}
    public func jpegData(compressionQuality: Double) -> Data? { Data() }
}
#endif
