//! `inkboard open` of another program's diagram (issue 16): a draw.io file opens
//! in the editor as a new board with no file, its import's losses in the window's
//! `board` message; nothing is written until the person says yes to the board
//! file offered beside it (or an agent saves it with `save_board` and `as`), and
//! the diagram itself is never touched. Downloads from the editor carry the board.

mod common;

use std::path::Path;
use std::process::Command;

use common::app::{file_objects, wait_for_file, App};
use common::BIN;
use serde_json::{json, Value};

const CORPUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../inkboard-interop/tests/corpus"
);

/// Opens a copy of the corpus file `name` in a scratch folder.
fn open_copy(name: &str) -> App {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let runtime = dir.path().join("runtime");
    let source = dir.path().join(name);
    std::fs::copy(Path::new(CORPUS).join(name), &source).expect("copy the diagram");
    App::start_in(dir, runtime, source)
}

/// The files in the app's folder, the runtime folder apart.
fn files(app: &App) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(app.dir.path())
        .expect("the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n != "runtime")
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn a_drawio_file_opens_unsaved_and_is_saved_beside_it_only_when_asked() {
    let app = open_copy("drawio-template-aws_3.xml");
    let original = std::fs::read(&app.board).expect("the diagram");
    let signed = app.sign_in();
    let mut window = app.window(&signed).await;
    window.send(json!({"t": "view", "page": 1})).await;
    let meta = window.until(|m| m["t"] == "board").await;
    assert_eq!(meta["path"], Value::Null, "{meta}");
    assert_eq!(meta["save"], "unsaved", "{meta}");
    let imported = &meta["imported"];
    assert_eq!(imported["format"], "draw.io", "{meta}");
    let offered = app.dir.path().join("drawio-template-aws_3.inkboard");
    assert_eq!(imported["save_to"], offered.display().to_string());
    let lost = imported["lost"].as_array().expect("lost").clone();
    assert!(
        lost.iter().any(|l| l
            .as_str()
            .is_some_and(|l| l.starts_with("13 stencil shapes"))),
        "{lost:?}"
    );
    let shown = window.objects.len();
    assert!(shown >= 30, "{shown} objects shown");

    // The person edits: still nothing written.
    let reply = window
        .call(
            "add_shape",
            json!({"page": 1, "text": "mine", "x": 0, "y": -200}),
        )
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(files(&app), ["drawio-template-aws_3.xml"]);

    // Yes to the offer: the board file beside the diagram, kept from now on.
    window.send(json!({"t": "keepimport", "seq": 900})).await;
    let reply = window.until(|m| m["t"] == "reply" && m["seq"] == 900).await;
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["result"]["path"], offered.display().to_string());
    let saved = wait_for_file(&offered, "the board saved", |v| {
        file_objects(v).iter().any(|o| o["text"] == "mine")
    });
    assert_eq!(file_objects(&saved).len(), shown + 1);
    // What the import could not keep travels with the board.
    assert_eq!(saved["imported"]["format"], "draw.io", "{saved}");
    let meta = window
        .until(|m| m["t"] == "board" && m["path"] != Value::Null)
        .await;
    assert_eq!(meta["imported"], Value::Null, "{meta}");

    // Later edits autosave there; the diagram is never touched.
    window
        .call(
            "add_shape",
            json!({"page": 1, "text": "later", "x": 0, "y": -400}),
        )
        .await;
    wait_for_file(&offered, "the later edit saved", |v| {
        file_objects(v).iter().any(|o| o["text"] == "later")
    });
    assert_eq!(std::fs::read(&app.board).expect("the diagram"), original);
    // Asked again once saved, there is nothing to keep.
    window.send(json!({"t": "keepimport", "seq": 901})).await;
    let reply = window.until(|m| m["t"] == "reply" && m["seq"] == 901).await;
    assert_eq!(reply["ok"], false, "{reply}");
    app.stop();
}

#[tokio::test]
async fn the_board_offered_never_replaces_one_already_there() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let taken = dir.path().join("made-features.inkboard");
    std::fs::write(&taken, "not mine to replace").expect("write");
    let source = dir.path().join("made-features.excalidraw");
    std::fs::copy(Path::new(CORPUS).join("made-features.excalidraw"), &source).expect("copy");
    let runtime = dir.path().join("runtime");
    let app = App::start_in(dir, runtime, source);
    let signed = app.sign_in();
    let mut window = app.window(&signed).await;
    window.send(json!({"t": "view", "page": 1})).await;
    let meta = window.until(|m| m["t"] == "board").await;
    let offered = app.dir.path().join("made-features (2).inkboard");
    assert_eq!(meta["imported"]["format"], "Excalidraw", "{meta}");
    assert_eq!(meta["imported"]["save_to"], offered.display().to_string());
    window.send(json!({"t": "keepimport", "seq": 1})).await;
    let reply = window.until(|m| m["t"] == "reply" && m["seq"] == 1).await;
    assert_eq!(reply["ok"], true, "{reply}");
    assert!(offered.exists());
    assert_eq!(
        std::fs::read_to_string(&taken).expect("read"),
        "not mine to replace"
    );
    app.stop();
}

#[tokio::test]
async fn an_svg_downloaded_from_the_editor_opens_again_as_the_board() {
    let app = App::start("plan.inkboard");
    let signed = app.sign_in();
    let mut window = app.window(&signed).await;
    let reply = window
        .call("add_shape", json!({"page": 1, "text": "kept"}))
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
    let headers = format!("Cookie: {}\nX-Inkboard-Key: {}", signed.cookie, signed.key);
    let answer = app.get("/export?page=1&format=svg", &headers);
    assert_eq!(answer.status, 200, "{}", answer.head);
    let picture = app.dir.path().join("download.svg");
    std::fs::write(&picture, &answer.body).expect("write");
    let back = app.dir.path().join("back.inkboard");
    let imported = Command::new(BIN)
        .arg("import")
        .arg(&picture)
        .arg("-o")
        .arg(&back)
        .output()
        .expect("inkboard import runs");
    assert!(imported.status.success(), "{imported:?}");
    let board: Value =
        serde_json::from_str(&std::fs::read_to_string(&back).expect("read")).expect("JSON");
    assert!(
        file_objects(&board).iter().any(|o| o["text"] == "kept"),
        "{board}"
    );
    // Without the board, on request.
    let bare = app.get("/export?page=1&format=svg&embed=false", &headers);
    assert_eq!(bare.status, 200, "{}", bare.head);
    assert!(!bare.body.contains("<metadata"), "{}", &bare.body[..200]);
    assert!(answer.body.contains("<metadata"));
    app.stop();
}

/// "Keep this import" saves under a name the application chose, beside the
/// diagram, in a folder others may write: a symbolic link planted at that name
/// (`plan.inkboard → ~/.bash_profile`) must never be written through, by the keep
/// or by the autosaves after it. Anything at a name, a dangling link included,
/// makes it taken; a link planted at the name offered after it was shown is
/// passed over at the keep, and the board goes to a new file of its own.
#[tokio::test]
async fn a_link_planted_where_an_import_is_kept_is_never_written_through() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().expect("a scratch folder");
    let outside = tempfile::tempdir().expect("a folder outside");
    let profile = outside.path().join("bash_profile");
    let bashrc = outside.path().join("bashrc");
    let source = dir.path().join("plan.drawio");
    std::fs::copy(Path::new(CORPUS).join("drawio-template-aws_3.xml"), &source).expect("copy");
    symlink(&profile, dir.path().join("plan.inkboard")).expect("plant a link");
    let runtime = dir.path().join("runtime");
    let app = App::start_in(dir, runtime, source);
    let signed = app.sign_in();
    let mut window = app.window(&signed).await;
    window.send(json!({"t": "view", "page": 1})).await;
    let meta = window.until(|m| m["t"] == "board").await;
    let second = app.dir.path().join("plan (2).inkboard");
    assert_eq!(meta["imported"]["save_to"], second.display().to_string());

    symlink(&bashrc, &second).expect("plant a link at the name offered");
    window.send(json!({"t": "keepimport", "seq": 7})).await;
    let reply = window.until(|m| m["t"] == "reply" && m["seq"] == 7).await;
    assert_eq!(reply["ok"], true, "{reply}");
    let third = app.dir.path().join("plan (3).inkboard");
    assert_eq!(reply["result"]["path"], third.display().to_string());
    window
        .call("add_shape", json!({"page": 1, "text": "later", "y": -400}))
        .await;
    wait_for_file(&third, "the later edit saved", |v| {
        file_objects(v).iter().any(|o| o["text"] == "later")
    });
    assert!(
        !profile.exists() && !bashrc.exists(),
        "written through a link"
    );
    for link in ["plan.inkboard", "plan (2).inkboard"] {
        let meta = std::fs::symlink_metadata(app.dir.path().join(link)).expect("the link");
        assert!(
            meta.file_type().is_symlink(),
            "{link} is still the link planted"
        );
    }
    assert!(!std::fs::symlink_metadata(&third)
        .expect("the board file")
        .file_type()
        .is_symlink());
    app.stop();
}
