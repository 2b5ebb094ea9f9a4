package tool

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// webp1x1 is a 1×1 lossy WebP.
const webp1x1 = "UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA"

func TestReadImage(t *testing.T) {
	env, _ := testEnv(t, nil)
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(env.Root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var big bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 3000, 1000))
	for x := 0; x < 3000; x++ {
		img.Set(x, x%1000, color.RGBA{255, 0, 0, 255})
	}
	png.Encode(&big, img)
	write("big.png", big.Bytes())
	var small bytes.Buffer
	jpeg.Encode(&small, image.NewRGBA(image.Rect(0, 0, 40, 30)), nil)
	write("small.jpg", small.Bytes())
	wp, _ := base64.StdEncoding.DecodeString(webp1x1)
	write("tiny.webp", wp)
	write("fake.png", []byte("not an image"))

	res := call(t, Read{}, env, map[string]string{"file_path": "big.png"})
	if res.IsError || len(res.Images) != 1 || !strings.Contains(res.Content, "3000x1000 png, resized to 1568x522") {
		t.Fatalf("big.png: %+v", res.Content)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(res.Images[0].Data))
	if err != nil || format != "png" || cfg.Width != imageMaxSide || cfg.Height != 522 || res.Images[0].MediaType != "image/png" {
		t.Errorf("resized image: %v %s %dx%d %s", err, format, cfg.Width, cfg.Height, res.Images[0].MediaType)
	}
	res = call(t, Read{}, env, map[string]string{"file_path": "small.jpg"})
	if len(res.Images) != 1 || !bytes.Equal(res.Images[0].Data, small.Bytes()) || res.Images[0].MediaType != "image/jpeg" {
		t.Errorf("a small JPEG is sent unchanged: %s", res.Content)
	}
	res = call(t, Read{}, env, map[string]string{"file_path": "tiny.webp"})
	if len(res.Images) != 1 || res.Images[0].MediaType != "image/webp" || !strings.Contains(res.Content, "1x1 webp") {
		t.Errorf("webp: %s", res.Content)
	}
	res = call(t, Read{}, env, map[string]string{"file_path": "fake.png"})
	if !res.IsError || !strings.Contains(res.Content, "not a readable image") {
		t.Errorf("fake.png: %+v", res)
	}
}
