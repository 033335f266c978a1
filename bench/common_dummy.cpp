// keeps mpb_benchcommon non-empty before bench/common/ has sources
