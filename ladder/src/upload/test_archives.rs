//! Archives for the tests, hostile ones among them, made in memory: tar entries with raw
//! names and types the `tar` crate would refuse to write, and bombs (a small gzip or zip entry
//! that expands to gigabytes) made without compressing gigabytes.

use flate2::{Compress, Compression, FlushCompress};
use std::io::Write;

/// One tar entry: a raw name, a type, a link target and data.
pub struct Entry<'a> {
    pub name: &'a [u8],
    pub kind: tar::EntryType,
    pub link: &'a [u8],
    pub data: &'a [u8],
    pub mode: u32,
}

/// A regular file.
pub fn file<'a>(name: &'a [u8], data: &'a [u8]) -> Entry<'a> {
    Entry {
        name,
        kind: tar::EntryType::Regular,
        link: b"",
        data,
        mode: 0o644,
    }
}

/// An entry of `kind` with no data.
pub fn special<'a>(name: &'a [u8], kind: tar::EntryType, link: &'a [u8]) -> Entry<'a> {
    Entry {
        name,
        kind,
        link,
        data: b"",
        mode: 0o644,
    }
}

/// A GNU header for `entry`, its name written raw.
fn header(entry: &Entry, size: u64) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    {
        let gnu = header.as_gnu_mut().unwrap();
        gnu.name[..entry.name.len()].copy_from_slice(entry.name);
        gnu.linkname[..entry.link.len()].copy_from_slice(entry.link);
    }
    header.set_entry_type(entry.kind);
    header.set_mode(entry.mode);
    header.set_size(size);
    header.set_mtime(0);
    header.set_cksum();
    header
}

/// A tar archive of `entries`.
pub fn tar(entries: &[Entry]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for entry in entries {
        let header = header(entry, entry.data.len() as u64);
        builder.append(&header, entry.data).unwrap();
    }
    builder.into_inner().unwrap()
}

/// `bytes` gzip-compressed.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A raw deflate stream of `prefix` then `mib` MiB of zeros, made by compressing one MiB of
/// zeros once and repeating its (byte-aligned, sync-flushed) blocks; its end is left out, as a
/// reader stopped at its cap never reaches it.
fn deflate_bomb(prefix: &[u8], mib: usize) -> Vec<u8> {
    let zeros = vec![0u8; 1 << 20];
    let mut compress = Compress::new(Compression::best(), false);
    let mut squeeze = |input: &[u8]| {
        let mut out = Vec::with_capacity(input.len() + 1024);
        compress
            .compress_vec(input, &mut out, FlushCompress::Sync)
            .unwrap();
        out
    };
    let mut stream = squeeze(&[prefix, &zeros].concat());
    let block = squeeze(&zeros);
    for _ in 1..mib {
        stream.extend_from_slice(&block);
    }
    stream
}

/// A `.tar.gz` of a few KiB holding one file, `bomb.py`, of `mib` MiB of zeros.
pub fn gzip_bomb(mib: usize) -> Vec<u8> {
    let entry = file(b"bomb.py", b"");
    let header = header(&entry, (mib as u64) << 20);
    let mut gz = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    gz.extend(deflate_bomb(header.as_bytes(), mib));
    gz
}

/// A `.zip` of a few KiB holding one deflated file, `bomb.py`, of `mib` MiB of zeros (its
/// header says 4 GiB, its CRC is left wrong: a reader stopped at its cap never checks it).
pub fn zip_bomb(mib: usize) -> Vec<u8> {
    let data = deflate_bomb(b"", mib);
    let name = b"bomb.py";
    let size = |v: u32| v.to_le_bytes();
    let mut zip = Vec::new();
    let fields = |zip: &mut Vec<u8>| {
        zip.extend([20, 0, 0, 0, 8, 0, 0, 0, 0, 0]); // version, flags, deflate, time, date
        zip.extend(size(0)); // crc
        zip.extend(size(data.len() as u32));
        zip.extend(size(0xFFFF_FFF0));
        zip.extend((name.len() as u16).to_le_bytes());
        zip.extend([0, 0]); // extra
    };
    zip.extend(b"PK\x03\x04");
    fields(&mut zip);
    zip.extend(name);
    zip.extend(&data);
    let central = zip.len();
    zip.extend(b"PK\x01\x02");
    zip.extend([20, 3]); // made by: Unix
    fields(&mut zip);
    zip.extend([0, 0, 0, 0, 0, 0]); // comment, disk, internal attributes
    zip.extend(size(0o100644 << 16)); // external attributes: a regular file
    zip.extend(size(0)); // its local header's offset
    zip.extend(name);
    let end = zip.len();
    zip.extend(b"PK\x05\x06");
    zip.extend([0, 0, 0, 0, 1, 0, 1, 0]);
    zip.extend(size((end - central) as u32));
    zip.extend(size(central as u32));
    zip.extend([0, 0]);
    zip
}

/// A zip archive of `(name, data)` files, deflated.
pub fn zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in files {
        writer.start_file(*name, options).unwrap();
        writer.write_all(data).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A zip archive holding a symbolic link `name` to `target`.
pub fn zip_with_link(name: &str, target: &str) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    writer.add_symlink(name, target, options).unwrap();
    writer.finish().unwrap().into_inner()
}
