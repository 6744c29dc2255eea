import Foundation
import RetroSwift

/// A speech-to-text upload in the shape of the README's multipart example.
final class ElevenLabsApi: ApiDomain, @unchecked Sendable {
    struct SpeechToTextApiRequest {
        @FormParam("model_id") var modelId = ""
        @FormParam("language_code") var languageCode = ""
        @FormParam("tag_audio_events") var tagAudioEvents = false
        @FormParam("num_speakers") var numSpeakers = 1
        @FormFile("file") var recording = .empty
    }

    struct SpeechToTextResponse: Decodable, Sendable {
        var text: String
    }

    @Post("/v1/speech-to-text", timeout: 120)
    var speechToText: (SpeechToTextApiRequest) async throws -> SpeechToTextResponse
}
