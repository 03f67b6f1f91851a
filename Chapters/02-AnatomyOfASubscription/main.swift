import RxCore

let observable = Observable<String>.create { observer in
    observer.onNext("mojito")
    return Disposables.create()
}
let disposeBag = DisposeBag()
observable.subscribe(onNext: { text in
    print(text)
}).disposed(by: disposeBag)
