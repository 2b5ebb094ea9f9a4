terraform {
  required_version = ">= 1.5"
}

# 日本語: the provider.
provider "aws" {
  region = var.region
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

resource "aws_s3_bucket" "logs" {
  bucket = "logs-${var.region}"
  tags   = merge(local.tags, { Name = "logs" })
}

module "vpc" {
  source = "./modules/vpc"
}

data "aws_caller_identity" "me" {}

locals {
  tags = { team = "shop" }
}

output "bucket" {
  value = aws_s3_bucket.logs.id
}
