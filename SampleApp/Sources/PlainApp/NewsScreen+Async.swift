import EndpointKit
import EndpointKitStreaming

// The same screen with async/await: each method starts a Task on the main actor, which resumes
// there after every `await`, so the state is written as in the closures. The Task is returned
// for the caller to cancel (leaving the screen) or to await.

extension NewsScreen {
    /// The reader's name as the title.
    @discardableResult
    func refreshTitle() -> Task<Void, Never> {
        Task {
            // Inside a closure Swift does not infer a `do` block's error type: say it.
            do throws(APIFailure) {
                title = try await client.value(for: GetProfile()).name
                log("async profile: \(title)")
            } catch {
                show(error)
            }
        }
    }

    /// Posts a comment and opens the article it is on.
    @discardableResult
    func postComment(_ text: String, on articleID: Int) -> Task<Void, Never> {
        Task {
            isLoading = true
            defer { isLoading = false }
            let result = await client.send(PostComment(comment: NewComment(articleID: articleID, text: text)))
            guard let article = result.value else { return show(result.failure) }
            title = article.title
            log("commented: \(article.title)")
        }
    }

    /// Breaking headlines into the event log, with `for try await`; cancelling the Task stops the
    /// stream.
    @discardableResult
    func watchTicker() -> Task<Void, Never> {
        Task {
            do throws(APIFailure) {
                for try await headline in client.stream(LiveHeadlines()) {
                    log("async live: \(headline.title)")
                }
                log("async live ended")
            } catch {
                if let failure = error.serverFailure, LiveHeadlines.isEndOfHeadlines(failure) {
                    log("async live ended")
                } else {
                    show(error)
                }
            }
        }
    }
}
