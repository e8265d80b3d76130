//! What the package's functions accept as inputs, made into the library's
//! [`Source`]s: a path (a folder walked for its record files by the
//! library's walk, as the command line walks it), record bytes or text, a
//! file object (binary or text mode), or a list of them.

use crate::RecordError;
use gamerec::output::Output;
use gamerec::sources::{self, Said, Source};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use std::io::{self, Read};
use std::path::PathBuf;

/// One input as Python gave it.
enum Src {
    Path(PathBuf),
    Bytes(Vec<u8>),
    /// A binary or text file object (anything with `read`), and its name.
    Stream(Py<PyAny>, String),
}

/// The inputs `obj` names: one source, or a list (tuple, any iterable
/// that is not itself a source) of them; `output` (a file being written)
/// is never among them.
pub fn sources_of(obj: &Bound<'_, PyAny>, output: &Output) -> PyResult<Vec<Source>> {
    if let Some(src) = one_source(obj)? {
        return expand(src, output);
    }
    let mut out = Vec::new();
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "not an input: {} (give a path, bytes, record text or a file object, or a list of \
             them)",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    for item in items {
        let item = item?;
        match one_source(&item)? {
            Some(src) => out.extend(expand(src, output)?),
            None => {
                return Err(PyTypeError::new_err(format!(
                    "not an input: {} (give a path, bytes, record text or a file object)",
                    item.get_type().name()?
                )))
            }
        }
    }
    Ok(out)
}

/// `obj` as one input, or `None` when it is not one (a list, say).
fn one_source(obj: &Bound<'_, PyAny>) -> PyResult<Option<Src>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Some(Src::Bytes(b.as_bytes().to_vec())));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Some(Src::Bytes(b.to_vec())));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_cow()?;
        // Record text has lines; a path has none.
        return Ok(Some(match s.contains('\n') {
            true => Src::Bytes(s.as_bytes().to_vec()),
            false => Src::Path(PathBuf::from(s.as_ref())),
        }));
    }
    if obj.hasattr("__fspath__")? {
        return Ok(Some(Src::Path(obj.extract::<PathBuf>()?)));
    }
    if obj.hasattr("read")? {
        let name = obj
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "<stream>".into());
        return Ok(Some(Src::Stream(obj.clone().unbind(), name)));
    }
    if obj.cast::<pyo3::types::PyMemoryView>().is_ok() {
        return Ok(Some(Src::Bytes(obj.extract::<Vec<u8>>()?)));
    }
    Ok(None)
}

/// A source as the inputs it stands for: a folder through the library's
/// walk (its record files; the first error it says is raised), a file as
/// it is (one that cannot be read raises when it is read).
fn expand(src: Src, output: &Output) -> PyResult<Vec<Source>> {
    match src {
        Src::Path(p) if !p.is_dir() => Ok(vec![Source::File(p)]),
        Src::Path(p) => {
            let walked = sources::walk(std::slice::from_ref(&p), false, output);
            let error = walked.said.into_iter().find_map(|s| match s {
                Said::Error(e) => Some(e),
                Said::Note(_) => None,
            });
            match error {
                Some(e) => Err(RecordError::new_err(e)),
                None => Ok(walked.sources),
            }
        }
        Src::Bytes(b) => Ok(vec![Source::Bytes("<bytes>".into(), b.into())]),
        Src::Stream(obj, name) => {
            let reader: Box<dyn Read + Send> = match is_text_stream(&obj) {
                true => Box::new(Quartered(PyReader(obj))),
                false => Box::new(PyReader(obj)),
            };
            Ok(vec![Source::reader(name, reader)])
        }
    }
}

/// A Python file object read from Rust (the GIL taken for each read).
struct PyReader(Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self
                .0
                .call_method1(py, "read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let data = data.bind(py);
            let bytes: Vec<u8> = if let Ok(s) = data.cast::<PyString>() {
                // A text file: its characters as UTF-8 (a read of n
                // characters may be longer than n bytes: what does not
                // fit is an error, so read text in small pieces).
                s.to_cow()
                    .map_err(|e| io::Error::other(e.to_string()))?
                    .as_bytes()
                    .to_vec()
            } else {
                data.extract::<Vec<u8>>()
                    .map_err(|_| io::Error::other("read() returned neither bytes nor str"))?
            };
            if bytes.len() > buf.len() {
                return Err(io::Error::other(
                    "read(n) returned more than n bytes (a text file's characters?)",
                ));
            }
            buf[..bytes.len()].copy_from_slice(&bytes);
            Ok(bytes.len())
        })
    }
}

/// A text-mode file object hands out characters, not bytes: reads of a
/// quarter of the buffer always fit (a character is at most 4 bytes).
struct Quartered(PyReader);

impl Read for Quartered {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (buf.len() / 4).max(1);
        if buf.len() < 4 {
            let mut four = [0u8; 4];
            let got = self.0.read(&mut four[..])?;
            let take = got.min(buf.len());
            buf[..take].copy_from_slice(&four[..take]);
            return Ok(take);
        }
        self.0.read(&mut buf[..n])
    }
}

/// Whether a file object is in text mode (hands out `str`).
fn is_text_stream(obj: &Py<PyAny>) -> bool {
    Python::attach(|py| {
        let io = py.import("io").ok();
        let text = io.and_then(|io| io.getattr("TextIOBase").ok());
        text.is_some_and(|t| obj.bind(py).is_instance(&t).unwrap_or(false))
    })
}
