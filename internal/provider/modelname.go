package provider

// ModelName is the model part of "provider:model" ("" for a scripted path).
func ModelName(spec string) string {
	for i := 0; i < len(spec); i++ {
		if spec[i] == ':' {
			if spec[:i] == "scripted" {
				return ""
			}
			return spec[i+1:]
		}
	}
	return spec
}
