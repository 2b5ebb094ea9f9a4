package tool

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // decoder registration
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decoder registration
)

// Image limits: what every provider Grit speaks accepts without scaling
// again. Anthropic scales images over 1568 px on the long edge down and
// refuses those over 5 MB of base64 (3.75 MB raw); OpenAI and Ollama
// vision models take these sizes as they are.
const (
	imageMaxSide  = 1568
	imageMaxBytes = 3_750_000
	// imageMaxFile is the largest image file Read decodes.
	imageMaxFile = 30 << 20
	// imageJPEGQuality is used when a resized image is re-encoded as JPEG.
	imageJPEGQuality = 85
)

// Image is an image for the model: its media type and bytes.
type Image struct {
	MediaType string
	Data      []byte
}

// ImageType is the media type of a path with an image extension
// (.png, .jpg, .jpeg, .gif, .webp), or "".
func ImageType(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	}
	return ""
}

// LoadImage reads an image and fits it to the limits: an image within
// them is sent as it is; a larger one is scaled down to imageMaxSide on its
// long edge and re-encoded (PNG for PNG and GIF, JPEG otherwise; JPEG
// when PNG stays over the byte limit). note says what was done.
func LoadImage(r io.Reader) (img Image, note string, err error) {
	data, err := io.ReadAll(io.LimitReader(r, imageMaxFile+1))
	if err != nil {
		return Image{}, "", err
	}
	if len(data) > imageMaxFile {
		return Image{}, "", fmt.Errorf("image is over %d MB", imageMaxFile>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Image{}, "", fmt.Errorf("not a readable image: %w", err)
	}
	mt := "image/" + format
	if cfg.Width <= imageMaxSide && cfg.Height <= imageMaxSide && len(data) <= imageMaxBytes {
		return Image{MediaType: mt, Data: data}, fmt.Sprintf("%dx%d %s", cfg.Width, cfg.Height, format), nil
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return Image{}, "", fmt.Errorf("decode %s: %w", format, err)
	}
	w, h := cfg.Width, cfg.Height
	switch {
	case w >= h && w > imageMaxSide:
		w, h = imageMaxSide, max(1, h*imageMaxSide/w)
	case h > w && h > imageMaxSide:
		w, h = max(1, w*imageMaxSide/h), imageMaxSide
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Over, nil)
	var buf bytes.Buffer
	if format == "png" || format == "gif" {
		if err := png.Encode(&buf, dst); err == nil && buf.Len() <= imageMaxBytes {
			return Image{MediaType: "image/png", Data: buf.Bytes()}, fmt.Sprintf("%dx%d %s, resized to %dx%d", cfg.Width, cfg.Height, format, w, h), nil
		}
		buf.Reset()
	}
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: imageJPEGQuality}); err != nil {
		return Image{}, "", fmt.Errorf("encode: %w", err)
	}
	return Image{MediaType: "image/jpeg", Data: buf.Bytes()}, fmt.Sprintf("%dx%d %s, resized to %dx%d JPEG", cfg.Width, cfg.Height, format, w, h), nil
}

// readImage is Read of an image file: a short text plus the image.
func readImage(f *os.File, rel string) (Result, error) {
	img, note, err := LoadImage(f)
	if err != nil {
		return Result{}, fixf(nil, "%s: %v", rel, err)
	}
	return Result{Content: fmt.Sprintf("Image %s (%s).", rel, note), Images: []Image{img}}, nil
}
