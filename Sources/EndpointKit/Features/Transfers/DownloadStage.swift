import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Resumable downloads: the stage of every send of a ``DownloadRequest``.
///
/// Before an attempt it resumes a partial file with `Range` and `If-Range` (or starts over) and
/// points the transport at that file; after a success it moves the file into place; a resumed
/// download the server refused as unsatisfiable (416: the partial file is longer than the
/// resource) is discarded and sent again, once; a failed send keeps its partial file for the next
/// one unless the download is not resumable or was cancelled discarding it.
final class DownloadStage: RequestStage {
    private struct State {
        var partial: PartialDownload?
        var offset: Int64 = 0
        var restarted = false
    }

    private let download: any DownloadRequest
    private let folder: URL
    private let state = Locked(State())

    var hooks: StageHooks { [.willSend, .didProcess, .retry, .didComplete] }

    init(download: any DownloadRequest, folder: URL) {
        self.download = download
        self.folder = folder
    }

    func willSend(_ request: inout TransportRequest, context: RequestContext) -> StageAnswer? {
        guard let url = request.urlRequest.url else { return nil }
        let partial = PartialDownload(folder: folder, sourceURL: url, destination: download.destination)
        var offset: Int64 = 0
        if download.isResumable, let point = partial.resumePoint() {
            offset = point.offset
            request.urlRequest.setValue("bytes=\(point.offset)-", forHTTPHeaderField: "Range")
            request.urlRequest.setValue(point.validator, forHTTPHeaderField: "If-Range")
        } else {
            partial.discard()
        }
        state.withLock { state in
            state.partial = partial
            state.offset = offset
        }
        request.download = DownloadTarget(fileURL: partial.fileURL, resumeOffset: offset) { response in
            partial.record(response)
        }
        return nil
    }

    func didProcess<Value: Sendable>(
        _ result: APIResult<Value>, response: TransportResponse?, source: ResponseSource
    ) -> APIResult<Value> {
        guard case .success(let value, let metadata) = result, let partial = state.withLock({ $0.partial }) else {
            return result
        }
        do throws(TransportError) {
            let target = try partial.moveToDestination(download.destination, response: metadata.response)
            return .success(target as? Value ?? value, metadata)
        } catch {
            return .transportError(error)
        }
    }

    func retry(after failure: APIFailure, request: URLRequest, context: RequestContext) async -> RetryDecision {
        guard failure.statusCode == 416 else { return .noOpinion }
        return state.withLock { state -> RetryDecision in
            guard let partial = state.partial, state.offset > 0 else { return .noOpinion }
            partial.discard()
            state.partial = nil
            defer { state.restarted = true }
            return state.restarted ? .stop : .retry(after: 0)
        }
    }

    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext, handle: RequestHandle) {
        guard result.failure != nil, handle.discardsPartialDownload || !download.isResumable,
            let partial = state.withLock({ $0.partial })
        else { return }
        partial.discard()
    }
}

/// The feature that gives every ``DownloadRequest`` its ``DownloadStage``.
struct DownloadFeature: ClientFeature {
    let folder: URL

    /// Downloads answer with the file's `URL`.
    var responseType: Any.Type? { URL.self }

    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)? {
        // A download's response is a URL: comparing types is cheaper than looking a conformance up.
        guard Request.Response.self == URL.self, let download = request as? any DownloadRequest else { return nil }
        return DownloadStage(download: download, folder: folder)
    }
}
