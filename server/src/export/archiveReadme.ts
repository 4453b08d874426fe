// The README.txt of a teacher's archive (the pages are in `archiveSite.ts`, data.json's parts in `archiveData.ts`).

/** README.txt of the archive: what is where, and the shape of data.json. */
export const ARCHIVE_README = `PracticeFolio archive
=====================

Open index.html in a web browser: the pages work without a network connection.

What is inside
- index.html                 your portfolios and your artifacts in shared portfolios
- portfolio-<id>.html        one page per portfolio, listing its artifacts
- artifact-<id>.html         one page per artifact: its answers, its files and its history
- shared-artifact-<id>.html  one page per artifact of yours in a shared portfolio, with its comments and history
- media/                     the original files, as uploaded (named <file id>-<name>)
- data.json                  all of the above as data

data.json (UTF-8 JSON; every time is ISO 8601 in UTC)
{
  "format": "practicefolio-archive", "version": 1, "generated_at": time,
  "teacher": { "username", "email" },
  "portfolios": [ {
      "id", "name", "subject" (or null), "topic" (or null), "grades": [grade codes],
      "created_at", "updated_at", "page": file name of its page,
      "questions": [ { "key", "text", "type", "choices" (choice questions), "team": false } ],
      "artifacts": [ {
          "id", "title", "parkingLot": true while in the parking lot, "created_at", "updated_at", "page",
          "answers": [ { "key", "question", "type", "team", "answer": text, number, list of texts, or null } ],
          "media": [ { "id", "kind": "image"|"video"|"document", "caption" (A, B, ...), "name", "mime",
                       "size" (bytes), "alt", "description", "path": its file in the archive, or null if missing } ],
          "history": [ {   every saved version, oldest first
              "number" (1, 2, ...), "created_at", "author" (user name, or null), "client": "web"|"mobile"|"copy"|"restore"|"system",
              "restoredFrom": the version a restore brought back, or null,
              "changes": [ { "key", "question", "answer": the answer after this version, or null if removed } ],
              "filesAdded": [file ids], "filesRemoved": [file ids]   (files still attached are in "media")
          } ]
      } ]
  } ],
  "sharedArtifacts": [ {
      "id", "title", "created_at", "updated_at", "page", "answers", "media", "history" (as above),
      "sharedPortfolio": { "id", "name" },
      "comments": [ { "id", "author" (user name), "text", "created_at", "updated_at",
                      "moment": null, or { "mediaId", "start", "end" (seconds; end null for a single time) } } ]
  } ]
}
Question types: shortText, longText, singleSelection, multipleResponse, number, expansionPanelChoices
("unknown": an answer kept for a question the artifact's structure no longer has).
`;
